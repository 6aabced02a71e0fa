import CLinux

/// glibc's heap settings for a process that runs a recording proxy for long.
public enum HeapSettings {
    /// Where freed memory at a heap's top is given back to the kernel: far above what one
    /// exchange frees. glibc's default (128 KiB) gives it back after about one push in twelve
    /// (libcurl frees a 64 KiB receive buffer after each transfer), and the next transfer then
    /// faults the pages in again: on a 2-core VM, 0.08 `madvise` calls and 0.14 page faults per
    /// push, none with these settings (docs/benchmarks.md).
    public static var trimThreshold: Int32 { 64 << 20 }

    /// The size from which a block is mapped on its own: above a recorded body's default limit
    /// (16 MiB), so that a long body's copies reuse heap memory instead of fresh pages.
    public static var mapThreshold: Int32 { 32 << 20 }

    /// Gives the heap's free memory back to the kernel now (`malloc_trim`), wherever it lies:
    /// after a large exchange, whose copies would otherwise stay resident under the thresholds
    /// above until the next large one.
    public static func releaseFreedMemory() { _ = malloc_trim(0) }

    /// Keeps freed memory in the process for the next exchanges (fixing glibc's thresholds,
    /// which it otherwise moves as blocks come and go). Process-wide: call it once, from the
    /// command that runs the proxy, before it starts.
    /// - Returns: whether glibc took both settings.
    @discardableResult
    public static func keepFreedMemory() -> Bool {
        mallopt(M_TRIM_THRESHOLD, trimThreshold) == 1 && mallopt(M_MMAP_THRESHOLD, mapThreshold) == 1
    }
}
