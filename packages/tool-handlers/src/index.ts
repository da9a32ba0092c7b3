// ToolRegistry handlers: discovering their tools with their schemas, and calling them.
export {};
