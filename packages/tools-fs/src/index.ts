/** @rein/tools-fs: Workspace file tools for rein, confined to a root: read_file, write_file, edit_file, list_dir, glob, grep. */
export {}
