import { parseArgs } from 'node:util';

/**
 * The `--name value` options of a command, read by node:util's parseArgs: an unknown option, or one given without
 * its value, stops the command with a message naming it instead of being silently ignored.
 */
export function cliOptions<N extends string, F extends string = never>(
  args: string[],
  names: readonly N[],
  /** Options without a value (`--keep`): read as 'true' when given. */
  flags: readonly F[] = [],
): (name: N | F) => string | undefined {
  const { values } = parseArgs({
    args,
    options: {
      ...Object.fromEntries(names.map((n) => [n, { type: 'string' as const }])),
      ...Object.fromEntries(flags.map((n) => [n, { type: 'boolean' as const }])),
    },
    strict: true,
    allowPositionals: false,
  });
  return (name) => {
    const v = values[name];
    return v === true ? 'true' : (v as string | undefined);
  };
}
