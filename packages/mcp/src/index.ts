/** @rein/mcp: MCP servers as rein tools: every server tool goes through the kernel pipeline. */
export {}
