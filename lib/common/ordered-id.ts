import { v7 } from 'uuid';

/**
 * A new row id that sorts in the order ids were made (UUID version 7: the time in milliseconds, then a counter
 * within the millisecond, then random bits). Paragraphs, records and mentions are written by the hundred thousand:
 * with random ids every insert lands on a random page of the primary-key index, which at ten times the shared corpus
 * no longer fits the embedded database's buffers, and reading paragraphs in id order read their table at random.
 * In made order both indexes and reads stay on the pages just written, and a paper's records read back in id order
 * come in the order they were imported.
 */
export function orderedId(): string {
  return v7();
}
