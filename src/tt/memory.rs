//! The table's memory: one zeroed block, 2 MiB-aligned, with transparent huge pages asked for.
//!
//! On Linux the block is an anonymous `mmap`: it costs nothing until touched (the kernel hands
//! out zeroed pages on first touch), it is aligned to 2 MiB by trimming an over-sized mapping,
//! and `madvise(MADV_HUGEPAGE)` asks for transparent huge pages, so that a table of gigabytes
//! needs thousands of page-table entries rather than millions: faster to set up, to free, and
//! fewer TLB misses in the search. Where the kernel refuses (THP off, old kernel), the advice
//! is silently dropped. Elsewhere the block comes from the global allocator, zeroed.

use std::ptr::NonNull;

/// The huge page size the block is aligned to.
pub const HUGE_PAGE: usize = 2 << 20;
/// The small page size: touching one byte per page faults the whole block in.
pub const PAGE: usize = 4096;

/// A zeroed, 2 MiB-aligned block of memory, freed on drop.
pub struct Block {
    ptr: NonNull<u8>,
    /// Usable bytes (a multiple of 64).
    bytes: usize,
    /// Bytes reserved (`bytes` rounded up to `HUGE_PAGE`).
    reserved: usize,
    huge_advised: bool,
}

// SAFETY: `Block` owns its memory exclusively (like a `Box<[u8]>`); the pointer is not shared
// with anything else, so moving it to or sharing it between threads is as safe as for a Box.
// What is stored in it is the table's business (atomics).
unsafe impl Send for Block {}
// SAFETY: as above; `Block` itself offers no mutation through `&self`.
unsafe impl Sync for Block {}

/// `bytes` rounded up to a whole number of huge pages, or `None` on overflow.
pub fn reserved_size(bytes: usize) -> Option<usize> {
    bytes.checked_next_multiple_of(HUGE_PAGE)
}

impl Block {
    /// A block of `bytes` zeroed bytes (`bytes` > 0, a multiple of 64), or `None` when the
    /// system refuses.
    pub fn zeroed(bytes: usize) -> Option<Block> {
        if bytes == 0 || !bytes.is_multiple_of(64) {
            return None;
        }
        let reserved = reserved_size(bytes)?;
        let (ptr, huge_advised) = allocate(reserved)?;
        Some(Block {
            ptr,
            bytes,
            reserved,
            huge_advised,
        })
    }

    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    pub fn len(&self) -> usize {
        self.bytes
    }

    pub fn is_empty(&self) -> bool {
        self.bytes == 0
    }

    /// Whether the kernel accepted the advice to back the block with huge pages.
    pub fn huge_pages_advised(&self) -> bool {
        self.huge_advised
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        release(self.ptr, self.reserved);
    }
}

#[cfg(target_os = "linux")]
fn allocate(reserved: usize) -> Option<(NonNull<u8>, bool)> {
    let len = reserved.checked_add(HUGE_PAGE)?;
    // SAFETY: an anonymous private mapping with no address hint touches no existing memory;
    // the result is checked against MAP_FAILED before use.
    let base = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if base == libc::MAP_FAILED || base.is_null() {
        return None;
    }
    let start = base as usize;
    let aligned = start.next_multiple_of(HUGE_PAGE);
    let head = aligned - start;
    let tail = len - head - reserved;
    // SAFETY: both ranges lie inside the mapping just made, are page-aligned (mmap returns
    // page-aligned memory, and `aligned` and `aligned + reserved` are multiples of 2 MiB), and
    // nothing refers to them: unmapping them only trims the mapping to the aligned part.
    unsafe {
        if head > 0 {
            libc::munmap(base, head);
        }
        if tail > 0 {
            libc::munmap((aligned + reserved) as *mut libc::c_void, tail);
        }
    }
    // SAFETY: advice on a range of our own mapping; it changes how the kernel backs the pages,
    // never their contents (still zero). A refusal (THP disabled) is harmless.
    let huge =
        unsafe { libc::madvise(aligned as *mut libc::c_void, reserved, libc::MADV_HUGEPAGE) == 0 };
    NonNull::new(aligned as *mut u8).map(|p| (p, huge))
}

#[cfg(target_os = "linux")]
fn release(ptr: NonNull<u8>, reserved: usize) {
    // SAFETY: `ptr..ptr + reserved` is exactly the mapping `allocate` kept, and the `Block`
    // that owned it is being dropped, so nothing refers to it any more.
    unsafe {
        libc::munmap(ptr.as_ptr() as *mut libc::c_void, reserved);
    }
}

#[cfg(not(target_os = "linux"))]
fn allocate(reserved: usize) -> Option<(NonNull<u8>, bool)> {
    let layout = std::alloc::Layout::from_size_align(reserved, HUGE_PAGE).ok()?;
    // SAFETY: `layout` has a non-zero size (`reserved` >= HUGE_PAGE); a null result is checked.
    let p = unsafe { std::alloc::alloc_zeroed(layout) };
    NonNull::new(p).map(|p| (p, false))
}

#[cfg(not(target_os = "linux"))]
fn release(ptr: NonNull<u8>, reserved: usize) {
    if let Ok(layout) = std::alloc::Layout::from_size_align(reserved, HUGE_PAGE) {
        // SAFETY: `ptr` came from `alloc_zeroed` with this same layout and is freed once.
        unsafe { std::alloc::dealloc(ptr.as_ptr(), layout) };
    }
}

/// Kibibytes of this process's memory backed by transparent huge pages (Linux; `None`
/// elsewhere or when `/proc` does not say).
pub fn anon_huge_kib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/smaps_rollup").ok()?;
    let line = text.lines().find(|l| l.starts_with("AnonHugePages:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_zeroed_aligned_and_writable() {
        for bytes in [64, 4096, 3 << 20, 5 << 20] {
            let b = Block::zeroed(bytes).expect("small block");
            assert_eq!(b.as_ptr() as usize % HUGE_PAGE, 0, "{bytes}");
            assert_eq!(b.len(), bytes);
            // SAFETY (test): the block has `bytes` bytes and only this test touches it.
            let s = unsafe { std::slice::from_raw_parts_mut(b.as_ptr(), bytes) };
            assert!(s.iter().all(|&x| x == 0));
            s[bytes - 1] = 7;
            assert_eq!(s[bytes - 1], 7);
        }
    }

    #[test]
    fn bad_sizes_are_refused() {
        assert!(Block::zeroed(0).is_none());
        assert!(Block::zeroed(100).is_none());
        assert!(Block::zeroed(usize::MAX - 63).is_none());
        assert_eq!(reserved_size(1), Some(HUGE_PAGE));
        assert_eq!(reserved_size(HUGE_PAGE), Some(HUGE_PAGE));
        assert_eq!(reserved_size(1 << 40), Some(1 << 40));
        assert_eq!(reserved_size(usize::MAX), None);
    }
}
