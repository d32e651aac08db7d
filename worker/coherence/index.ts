/** Temporal coherence of captures (SHARC): change detection, change rates, schedules, metrics. */
export { fingerprintCapture, findContentTimestamps, normalizedWords, shingleSketch, sketchJaccard, textDigest, type PageFingerprint } from './fingerprint';
export { classifyChange, transientFailure, validatorsTrusted, DEFAULT_MIN_SIMILARITY, type ChangeEvidence, type ChangeVerdict, type PageStatus, type RevisitExclusion, type RevisitObservation } from './change-classifier';
export { CHANGEFREQ_PER_DAY, poissonRateMle, poissonRateRegular, probabilityUnchanged, sitemapChangeRate, type VisitInterval } from './change-rates';
export { equalFrequencyBins, predictRate, trainRateClassifier, urlFeatures, type RateClassifierModel, type RatePrediction, type UrlSample } from './url-rate-classifier';
export { organPipesOrder, pyramidFromRings, revisitOrder, ringIntervalSlots, scheduleFromVisitOrder, visitRevisitPyramid, type PyramidSchedule, type RatedPage, type RevisitDiscipline } from './schedules';
export { blur, buildCertificate, coherence, summarise, type ClassifiedPage, type CoherenceCertificate, type CoherenceSummary } from './metrics';
export { adaptParentRule, afterFetch, initialRevisitState, isDue, revisitPeriodRounds, shouldRecrawlParent, DEFAULT_PARENT_RULE, DEFAULT_REVISIT_POLICY, type ParentRuleState, type RevisitState } from './incremental';
export { buildDiscoveryTree, diffWords, evidenceText, mimeClassOf, noCaptureText, rateHistogram, revisitHeading, sideSegments, toGraphML, treeStatusOf, AFTER_REFERENCE_TEXT, type CoherencePageRow, type TreeStatus, type CrawlCoherenceState, type DiffSegment, type SideSegment, type HistogramBin, type MimeClass, type TreeNode } from './coherence-view';
export { visitedAfterReference, visitSetCloses } from './visit-set';
export { backedOff, backoffAfterRound, HostTally, MAX_BACKOFF_ROUNDS, type HostAnswer, type HostBackoff } from './host-backoff';
