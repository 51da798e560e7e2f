/**
 * What one document may hold. A paragraph longer than `paragraphChars` is split at sentence ends (so a 5 MB
 * "paragraph" becomes pieces retrieval and structuring handle like any other); a paper with more text than
 * `paperChars`, or more paragraphs than `paragraphsPerPaper` after splitting, is refused with a clear error for
 * its file; an XML document with more than `xmlElements` elements is refused before it is parsed into a tree.
 * Configurable (ASSAY_MAX_PARAGRAPH_CHARS, ASSAY_MAX_PAPER_CHARS, ASSAY_MAX_PARAGRAPHS, ASSAY_MAX_XML_ELEMENTS).
 */
export interface DocumentLimits {
  paragraphChars: number;
  paperChars: number;
  paragraphsPerPaper: number;
  xmlElements: number;
}

export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = {
  paragraphChars: 20_000,
  paperChars: 2_000_000,
  paragraphsPerPaper: 5_000,
  xmlElements: 500_000,
};
