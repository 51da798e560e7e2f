import crypto from 'node:crypto';
import { seededRandom } from '../common/random.ts';

/**
 * Which graders grade which item, and in which order a grader sees an item's answers. Both are computed, not
 * stored, from stable inputs, so they never drift: graders are taken round-robin (item k goes to graders k, k+1, …
 * of the campaign's graders sorted by id), and each grader sees an item's answers in an order shuffled by a seed
 * made of the grader and the item, so order effects spread evenly and no two graders share an order by design.
 *
 * The seed is keyed by a secret of the server's (`key`, blinding-key.ts): the grader's id and the item's id are both
 * in the grader's own page, and an unkeyed hash of them let a grader compute the order, and so name each slot's
 * pipeline. For the same reason a slot's answer is named to the grader by a keyed token (slotToken), not by its row id.
 */
export function assignedGraders(ordinal: number, graderIds: string[], perItem: number): string[] {
  const sorted = [...graderIds].sort();
  const n = Math.min(perItem, sorted.length);
  return Array.from({ length: n }, (_, j) => sorted[(ordinal + j) % sorted.length]);
}

const keyed = (key: string, ...parts: string[]) => crypto.createHmac('sha256', key).update(parts.join('\u0000')).digest();

/** Fisher–Yates seeded by the server's key, the grader and the item. */
export function answerOrder<T>(answers: T[], graderId: string, itemId: string, key: string): T[] {
  const out = [...answers];
  const random = seededRandom(keyed(key, 'order', graderId, itemId).readUInt32LE(0));
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A, B, C … for the answers in the order a grader sees them. */
export const slotLabel = (i: number) => String.fromCharCode(65 + i);

/**
 * What a grader's page calls one of an item's answers: a token keyed by the server's secret, the grader and the
 * answer's row, so that it says nothing of when the answer was made (row ids are time-ordered, made in pipeline order)
 * and differs between graders.
 */
export const slotToken = (key: string, graderId: string, answerId: string): string =>
  `s-${keyed(key, 'slot', graderId, answerId).toString('base64url').slice(0, 16)}`;
