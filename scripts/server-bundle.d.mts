/** The cockpit's entries, by name; each compiled file keeps its source's base name (worker-main.mjs). */
export declare const SERVER_ENTRIES: Record<'server' | 'start' | 'worker' | 'analysisThread', string>;
export type Bundle<Name extends string> = Record<Name, string>;
export declare function ensureBundle<Name extends string>(opts: { root: string; entries: Record<Name, string>; cacheDir: string }): Promise<Bundle<Name>>;
export declare function ensureServerBundle(root?: string): Promise<Bundle<keyof typeof SERVER_ENTRIES>>;
export declare function serverBundleEnv(bundle: Bundle<keyof typeof SERVER_ENTRIES>): { TIDEMARK_WORKER_ENTRY: string; TIDEMARK_ANALYSIS_THREAD_ENTRY: string };
