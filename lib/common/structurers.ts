/** Which structurer an extractor id names, in words (the paper page, the import log, the record). */
export function describeStructurer(extractorId: string): string {
  if (extractorId.startsWith('heads@')) return `trained heads ${extractorId.slice(6, 16)} on the local model over the offline rules`;
  if (extractorId.startsWith('offline@')) return 'offline rules, no model';
  if (extractorId.startsWith('llm')) return 'language model';
  return extractorId;
}
