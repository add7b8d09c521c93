/** What no response body may carry: a stack trace's frames or file positions (the contract suite's leak check). */
export const STACK_TRACE = /\n\s+at \S|\bat [\w.<>]+ \(|node_modules|\.ts:\d+:\d+|\.js:\d+:\d+/;
