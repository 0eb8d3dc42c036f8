/**
 * `@anamnesis/mcp`: anamnesis as an MCP server. {@link main} runs it over stdio on a file store
 * (the `anamnesis-mcp` command, and `anamnesis mcp`); {@link createMemoryServer} builds the server
 * over any engine, for another transport.
 */
export { defaultStorePath, main } from './main.ts';
export {
  createMemoryServer,
  DEFAULT_MAX_TEXT_CHARS,
  DEFAULT_TOKEN_BUDGET,
  MAX_LIST_LIMIT,
  MAX_QUERY_CHARS,
  MAX_TOKEN_BUDGET,
  MAX_TOP_K,
  type MemoryServerOptions,
  type ServerMemory,
} from './server.ts';
