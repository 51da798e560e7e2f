import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formInput, idParams, queryList, readInput } from './contract.ts';
import { AppError } from './errors.ts';

const contract = {
  params: idParams,
  notFound: 'campaign',
  query: z.object({ format: z.enum(['csv', 'json']).default('csv'), tuple: queryList(z.string()) }),
  body: z.object({ ordinal: z.number().int() }),
  fieldPaths: true,
};
const request = (url: string, body: unknown, type = 'application/json') =>
  new Request(url, { method: 'PUT', headers: { 'content-type': type }, body: JSON.stringify(body) });
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return { code: (error as AppError).code, message: (error as AppError).message };
}

describe('route contracts', () => {
  it('read path parameters, the query (a repeated parameter as a list) and the JSON body through their schemas', async () => {
    const input = await readInput(request('http://x/api/grading/c1/grades?tuple=a&tuple=b', { ordinal: 3 }), ctx('c1'), contract);
    expect(input).toEqual({ params: { id: 'c1' }, query: { format: 'csv', tuple: ['a', 'b'] }, body: { ordinal: 3 } });
    const one = await readInput(request('http://x/?tuple=a&format=json', { ordinal: 0 }), ctx('c1'), contract);
    expect(one.query).toEqual({ format: 'json', tuple: ['a'] });
  });

  it('refuse what does not fit: a path parameter with 404, the query and body with 400 naming the field, a non-JSON body with 415', async () => {
    expect(await refusal(readInput(request('http://x/', { ordinal: 1 }), ctx('../etc'), contract))).toEqual({ code: 'not-found', message: 'no such campaign' });
    expect(await refusal(readInput(request('http://x/?format=xml', { ordinal: 1 }), ctx('c1'), contract))).toMatchObject({ code: 'bad-request' });
    expect(await refusal(readInput(request('http://x/', { ordinal: 1.5 }), ctx('c1'), contract))).toMatchObject({
      code: 'bad-request',
      message: expect.stringMatching(/^ordinal: /),
    });
    expect(await refusal(readInput(request('http://x/', { ordinal: 1 }, 'text/plain'), ctx('c1'), contract))).toMatchObject({
      code: 'unsupported-media-type',
    });
  });

  it('read a server action’s form with the schema’s own message, repeated fields as lists and files left out', () => {
    const form = new FormData();
    form.append('item', 'a');
    form.append('item', 'b');
    form.append('questions', new Blob(['x']), 'q.jsonl');
    const schema = z.object({ item: queryList(z.string()), key: z.string({ error: 'no entity key given' }).optional() });
    expect(formInput(schema, form)).toEqual({ item: ['a', 'b'] });
    expect(() => formInput(z.object({ key: z.string({ error: 'no entity key given' }) }), form)).toThrow('no entity key given');
  });
});
