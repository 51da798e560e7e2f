import * as ort from 'onnxruntime-node';

/**
 * The measured arithmetic peak of these cores for the local model's kind of work: one matrix product run by the same
 * runtime (onnxruntime-node, the same thread count) on operands of the model's shapes. The model is bge-small
 * quantized to 8 bits (its linear layers are MatMulInteger on uint8 activations and int8 weights), so its limit is
 * the integer product's; the float product is printed beside it. The one-node ONNX graph is written here in
 * protobuf's wire format (the few fields of onnx.proto it needs) rather than taken from a file or another package.
 */

// Protobuf wire format: a field's key is (number << 3) | type; 0 = varint, 2 = length-delimited bytes.
function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v > 127) {
    out.push((v & 127) | 128);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}
const bytes = (field: number, body: Uint8Array | number[]): number[] => [...varint((field << 3) | 2), ...varint(body.length), ...body];
const text = (field: number, s: string): number[] => bytes(field, [...Buffer.from(s, 'utf8')]);
const int = (field: number, n: number): number[] => [...varint(field << 3), ...varint(n)];

// onnx.proto's element types.
const FLOAT = 1;
const UINT8 = 2;
const INT8 = 3;
const INT32 = 6;

/** ValueInfoProto { name = 1, type = 2 { tensor_type = 1 { elem_type = 1, shape = 2 { dim = 1 { dim_value = 1 } } } } } as GraphProto's `field` (11 input, 12 output). */
const valueInfo = (field: number, name: string, elemType: number, dims: number[]) =>
  bytes(field, [
    ...text(1, name),
    ...bytes(
      2,
      bytes(1, [
        ...int(1, elemType),
        ...bytes(
          2,
          dims.flatMap((d) => bytes(1, int(1, d))),
        ),
      ]),
    ),
  ]);

/** A model of one product `Y = A · B`, B a constant (as a model's weights are): MatMulInteger or MatMul. */
function productModel(kind: 'int8' | 'float', m: number, k: number, n: number): Uint8Array {
  const op = kind === 'int8' ? 'MatMulInteger' : 'MatMul';
  const weights =
    kind === 'int8'
      ? Buffer.from(Int8Array.from({ length: k * n }, (_, i) => ((i * 37) % 255) - 127).buffer)
      : Buffer.from(Float32Array.from({ length: k * n }, (_, i) => ((i * 37) % 255) / 255 - 0.5).buffer);
  // TensorProto { dims = 1, data_type = 2, name = 8, raw_data = 9 }.
  const initializer = bytes(5, [...int(1, k), ...int(1, n), ...int(2, kind === 'int8' ? INT8 : FLOAT), ...text(8, 'B'), ...bytes(9, weights)]);
  // NodeProto { input = 1, output = 2, name = 3, op_type = 4 }.
  const node = bytes(1, [...text(1, 'A'), ...text(1, 'B'), ...text(2, 'Y'), ...text(3, 'product'), ...text(4, op)]);
  const graph = [
    ...node,
    ...text(2, 'peak'),
    ...initializer,
    ...valueInfo(11, 'A', kind === 'int8' ? UINT8 : FLOAT, [m, k]),
    ...valueInfo(12, 'Y', kind === 'int8' ? INT32 : FLOAT, [m, n]),
  ];
  // ModelProto { ir_version = 1, graph = 7, opset_import = 8 { domain = 1, version = 2 } }.
  return Uint8Array.from([...int(1, 8), ...bytes(7, graph), ...bytes(8, [...text(1, ''), ...int(2, 13)])]);
}

export interface PeakFigure {
  kind: 'int8' | 'float';
  shape: [number, number, number];
  /** Billions of multiply-adds ×2 (operations) a second: the best of the timed runs. */
  gops: number;
}

/** The best rate of `runs` products of each shape, after one untimed run (the runtime packs its constant first). */
export async function measurePeak(kind: 'int8' | 'float', threads: number, shapes: [number, number, number][], runs = 12): Promise<PeakFigure> {
  let best: PeakFigure = { kind, shape: shapes[0], gops: 0 };
  for (const [m, k, n] of shapes) {
    const session = await ort.InferenceSession.create(productModel(kind, m, k, n), { intraOpNumThreads: threads, interOpNumThreads: 1 });
    const a =
      kind === 'int8'
        ? new ort.Tensor(
            'uint8',
            Uint8Array.from({ length: m * k }, (_, i) => (i * 13) % 256),
            [m, k],
          )
        : new ort.Tensor(
            'float32',
            Float32Array.from({ length: m * k }, (_, i) => ((i * 13) % 256) / 256),
            [m, k],
          );
    await session.run({ A: a });
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now();
      await session.run({ A: a });
      const gops = (2 * m * k * n) / ((performance.now() - t0) / 1000) / 1e9;
      if (gops > best.gops) best = { kind, shape: [m, k, n], gops };
    }
    await session.release();
  }
  return best;
}
