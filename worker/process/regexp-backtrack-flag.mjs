// The V8 flag that sends a regular expression which backtracks too much to the linear-time engine
// (see bounded-regexp.ts). Plain JavaScript, so that bin/tidemark.js can set it before it compiles
// the CLI's bundle as well as boundRegExpBacktracking at each process's start: V8 takes a code cache
// only under the flags it was made with.
export const REGEXP_BACKTRACK_FLAG = '--enable-experimental-regexp-engine-on-excessive-backtracks';
