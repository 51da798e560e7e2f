import { parseArgs } from 'node:util';

/**
 * The `--name value` options of a command, read by node:util's parseArgs: an unknown option, or one given without
 * its value, stops the command with a message naming it instead of being silently ignored.
 */
export function cliOptions<N extends string>(args: string[], names: readonly N[]): (name: N) => string | undefined {
  const { values } = parseArgs({
    args,
    options: Object.fromEntries(names.map((n) => [n, { type: 'string' as const }])),
    strict: true,
    allowPositionals: false,
  });
  return (name) => values[name] as string | undefined;
}
