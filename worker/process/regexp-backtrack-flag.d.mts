export declare const REGEXP_BACKTRACK_FLAG: string;
