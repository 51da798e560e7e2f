/** POST /api/corpus/fetch (no body) → 202 {runId}: the starter corpus's download, followed on its run. */
export interface StarterCorpusResponse {
  runId: string;
}
