import quickselect from 'quickselect';

/**
 * The k-th largest of `values` (k from 1; `values` is reordered): what `values.sort()[values.length - k]` gives, by
 * Floyd–Rivest selection (the quickselect package), in time linear in their count. Finding the cut score of tens of
 * thousands of candidates by a numeric sort was the largest part of a hub question's cut at ten times the shared
 * corpus. Scores are never NaN.
 */
export function kthLargest(values: Float64Array, k: number): number {
  if (!Number.isInteger(k) || k < 1 || k > values.length) throw new RangeError(`k must be from 1 to ${values.length}, got ${k}`);
  const i = values.length - k;
  // The package's types name plain arrays; it reads and swaps by index, as on a typed array.
  quickselect(values as unknown as number[], i);
  return values[i];
}
