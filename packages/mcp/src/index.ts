/**
 * `@rein/mcp`: MCP servers as rein tools. Each server tool is registered as
 * `<server>__<tool>`, so every hook and policy plugin applies to it like to any other tool.
 *
 *   ctx.plugin(mcp, { servers: { fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] } } })
 *   await ctx.start()   // every server connected (or warned about), its tools registered
 */
/** The cordis plugin name. */
export const name = 'mcp'
/** Applied after the kernel, which provides `ctx.tools`. */
export const inject = ['tools']

export { Config, McpConfigError, type ServerConfig, type StdioServerConfig, type HttpServerConfig } from './config.js'
export { apply, type McpServerEvent } from './plugin.js'
export * from './codes.js'
export { toolName } from './names.js'
export { toContent, errorText, type McpContent } from './content.js'
