import crypto from 'node:crypto';
import { seededRandom } from '../common/random.ts';

/**
 * Which graders grade which item, and in which order a grader sees an item's answers. Both are computed, not
 * stored, from stable inputs, so they never drift: graders are taken round-robin (item k goes to graders k, k+1, …
 * of the campaign's graders sorted by id), and each grader sees an item's answers in an order shuffled by a seed
 * made of the grader and the item, so order effects spread evenly and no two graders share an order by design.
 */
export function assignedGraders(ordinal: number, graderIds: string[], perItem: number): string[] {
  const sorted = [...graderIds].sort();
  const n = Math.min(perItem, sorted.length);
  return Array.from({ length: n }, (_, j) => sorted[(ordinal + j) % sorted.length]);
}

const seedOf = (...parts: string[]) => crypto.createHash('sha256').update(parts.join('\u0000')).digest().readUInt32LE(0);

/** Fisher–Yates with the grader and item as seed. */
export function answerOrder<T>(answers: T[], graderId: string, itemId: string): T[] {
  const out = [...answers];
  const random = seededRandom(seedOf(graderId, itemId));
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A, B, C … for the answers in the order a grader sees them. */
export const slotLabel = (i: number) => String.fromCharCode(65 + i);
