/** @rein/retention: Pure retention functions: head, tail, head+tail of text by UTF-8 bytes and of items by count, with exact omitted counts. */
export {}
