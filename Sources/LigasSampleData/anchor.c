// LigasSampleData holds files, not code: SampleData/ is its resource, which SwiftPM copies beside
// the executables that depend on it. A C target needs one source file; this is it. (A Swift target
// with resources would get a generated accessor that links Foundation's Bundle.)
