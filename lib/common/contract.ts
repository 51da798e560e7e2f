import { z } from 'zod';
import { AppError, badRequest } from './errors.ts';
import { readJson } from './json-body.ts';

/**
 * A route's contract: the schemas of what it reads (path parameters, query, JSON body) and, as a type, what it
 * answers. Each route handler keeps its contract beside it (`app/api/<route>/contract.ts`): the handler reads its input
 * through `readInput`, a component calls it through the typed client (components/api-client.ts) with the response type
 * the contract exports, so neither side casts. Server actions read their forms through `formInput` the same way.
 */
export interface Contract<P = unknown, Q = unknown, B = unknown> {
  /** Path parameters (`[id]`): a value that does not fit is a 404 (`notFound` names the thing), never a 500. */
  params?: z.ZodType<P>;
  notFound?: string;
  /** The query string, as an object of its parameters (a repeated one as a list; see `queryList`). */
  query?: z.ZodType<Q>;
  /** The JSON body; `fieldPaths` prefixes each message with its field (bodies a screen builds itself). */
  body?: z.ZodType<B>;
  fieldPaths?: boolean;
}

export interface Input<P, Q, B> {
  params: P;
  query: Q;
  body: B;
}

/** What a route's request holds, parsed by its contract: a 400 (or 404 for path parameters) naming what is wrong. */
export async function readInput<P, Q, B>(
  request: Request,
  context: { params?: Promise<Record<string, string | string[]>> } | unknown,
  contract: Contract<P, Q, B>,
): Promise<Input<P, Q, B>> {
  const rawParams = (context as { params?: Promise<unknown> } | undefined)?.params;
  const params = contract.params ? contract.params.safeParse(await rawParams) : null;
  if (params && !params.success) throw new AppError('not-found', `no such ${contract.notFound ?? 'item'}`);
  const query = contract.query ? parsed(contract.query, fieldsOf(new URL(request.url).searchParams), false) : undefined;
  const body = contract.body ? parsed(contract.body, await readJson(request), !!contract.fieldPaths) : undefined;
  return { params: params?.data as P, query: query as Q, body: body as B };
}

/**
 * A server action's form, parsed by its schema (a repeated field as a list, files left out): a 400 with the schema's
 * own message when it does not fit (an action's schema words its messages for the person who sent the form).
 */
export function formInput<T>(schema: z.ZodType<T>, form: FormData): T {
  return parsed(schema, formFields(form), false);
}

/** A form's text fields as an object (a repeated field as a list), for a schema to parse. */
export const formFields = (form: FormData): Record<string, string | string[]> => fieldsOf(form);

/** A query string's or a form's text fields as an object: a repeated field as a list, files left out. */
function fieldsOf(source: { keys(): Iterable<string>; getAll(name: string): (string | File)[] }): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  for (const name of new Set(source.keys())) {
    const values = source.getAll(name).filter((v): v is string => typeof v === 'string');
    if (values.length) fields[name] = values.length === 1 ? values[0] : values;
  }
  return fields;
}

/** A query or form field that may be repeated: always a list (none: empty), of at most `most.max` when given. */
export const queryList = <T extends z.ZodType>(item: T, most?: { max: number; tooMany: string }) =>
  z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), most ? z.array(item).max(most.max, most.tooMany) : z.array(item));

function parsed<T>(schema: z.ZodType<T>, value: unknown, fieldPaths: boolean): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw badRequest(result.error.issues.map((i) => (fieldPaths && i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; '));
}

/**
 * A value as it arrives after `Response.json` and `res.json()`: dates become strings, functions and undefined
 * fields drop out. A contract's response type is the service's return type through this, so the client's type is what
 * the wire carries, not what the server held.
 */
export type Json<T> = T extends Date
  ? string
  : T extends bigint
    ? never
    : T extends string | number | boolean | null
      ? T
      : T extends (...args: never[]) => unknown
        ? never
        : T extends readonly (infer U)[]
          ? Json<U>[]
          : T extends object
            ? { [K in keyof T as T[K] extends (...args: never[]) => unknown ? never : K]: Json<T[K]> }
            : T;

/** Path parameters of a route under `[id]`: a cuid, uuid or slug (anything else is a 404, never a 500). */
export const idParams = z.object({ id: z.string().regex(/^[\w-]{1,100}$/) });
