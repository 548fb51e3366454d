/** @rein/tools-shell: The bash tool for rein: cwd confinement, env allow-list, process-group kill, head+tail output. */
export {}
