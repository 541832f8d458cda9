// Nothing to call: this target ships the SampleData/ files (see anchor.c). SwiftPM wants a
// public header directory for a C target.
