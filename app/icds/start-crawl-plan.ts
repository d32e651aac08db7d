/**
 * What the ICD editor's start button saves before the crawl starts, and what it says. A crawl
 * runs the stored definition, so unsaved edits — the form's, the term review's — are saved first
 * (the button names them); a role that may not save them starts the stored definition and is told.
 */

export interface StartCrawlPlan {
  /** Save the form before starting. */
  saveForm: boolean;
  /** Save the term review's topic terms before starting (with the form, in one save). */
  saveTerms: boolean;
  label: string;
}

export function startCrawlPlan({ formEdited, termsUnsaved, mayDesign }: { formEdited: boolean; termsUnsaved: boolean; mayDesign: boolean }): StartCrawlPlan {
  const saveForm = formEdited && mayDesign;
  const saveTerms = termsUnsaved && mayDesign;
  const label =
    saveForm && saveTerms ? 'Save the definition and topic terms, then start a crawl'
    : saveForm ? 'Save and start a crawl'
    : saveTerms ? 'Save topic terms and start a crawl'
    : formEdited || termsUnsaved ? 'Start a crawl (of the saved definition)'
    : 'Start a crawl';
  return { saveForm, saveTerms, label };
}
