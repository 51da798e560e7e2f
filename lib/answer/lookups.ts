import type { PrismaClient } from '../db/generated/client.ts';
import { recipeLookup } from '../synthesis/ask.ts';
import { bibliographyLookup } from './bibliography.ts';
import type { AnswerOptions } from './answer.ts';

/** What an answer looks up in the app's database beside retrieval: a synthesis question's recipes, a paper's authors. */
export const databaseLookups = (prisma: PrismaClient): Pick<AnswerOptions, 'recipes' | 'bibliography'> => ({
  recipes: recipeLookup(prisma),
  bibliography: bibliographyLookup(prisma),
});
