//! The network's two kernels — accumulator update and output layer — for each instruction set,
//! chosen once at start-up from what the CPU reports. Every path gives bit-identical results:
//! the arithmetic is exact integer arithmetic (i16 lanes wrap, i32 sums wrap), and wrapping
//! addition does not depend on the order of its terms.

use super::{HIDDEN, QA, Rows};
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// An instruction-set level for the kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Scalar = 1,
    Avx2 = 2,
    Avx512 = 3,
}

impl Level {
    /// Every level this CPU can run, slowest first.
    pub fn available() -> Vec<Level> {
        // Only x86-64 has levels to add; elsewhere `v` stays as it is.
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut v = vec![Level::Scalar];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                v.push(Level::Avx2);
            }
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
            {
                v.push(Level::Avx512);
            }
        }
        v
    }

    pub fn name(self) -> &'static str {
        match self {
            Level::Scalar => "scalar",
            Level::Avx2 => "avx2",
            Level::Avx512 => "avx512",
        }
    }
}

static LEVEL: AtomicU8 = AtomicU8::new(0);

/// The fastest level this CPU runs (detected once).
#[inline(always)]
pub fn level() -> Level {
    match LEVEL.load(Relaxed) {
        1 => Level::Scalar,
        2 => Level::Avx2,
        3 => Level::Avx512,
        _ => {
            let best = *Level::available().last().unwrap_or(&Level::Scalar);
            LEVEL.store(best as u8, Relaxed);
            best
        }
    }
}

/// `dst = src + adds - subs`, lane by lane (wrapping).
#[inline]
pub fn update(
    level: Level,
    dst: &mut [i16; HIDDEN],
    src: &[i16; HIDDEN],
    adds: &Rows,
    subs: &Rows,
) {
    match level {
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 => {
            // SAFETY: `Level::Avx2` is only ever chosen (by `level` or a test through
            // `Level::available`) when the CPU reports AVX2.
            unsafe { avx2::update(dst, src, adds, subs) }
        }
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 => {
            // SAFETY: `Level::Avx512` is only chosen when the CPU reports AVX-512 F and BW.
            unsafe { avx512::update(dst, src, adds, subs) }
        }
        _ => scalar_update(dst, src, adds, subs),
    }
}

/// The output layer before its bias: `sum(clamp(us, 0, QA)^2 * w[..H]) + sum(clamp(them, 0,
/// QA)^2 * w[H..])`. Each perspective's sum is exact in i32 for weights within the clip (see
/// `nnue::WEIGHT_CLIP`); the two are added in i64, where the sum of both may pass i32 (from
/// HIDDEN = 256 on).
#[inline]
pub fn forward(level: Level, us: &[i16; HIDDEN], them: &[i16; HIDDEN], w: &[i16]) -> i64 {
    let (w_us, w_them) = w.split_at(HIDDEN);
    let (Ok(w_us), Ok(w_them)) = (
        <&[i16; HIDDEN]>::try_from(w_us),
        <&[i16; HIDDEN]>::try_from(w_them),
    ) else {
        return 0;
    };
    match level {
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 => {
            // SAFETY: chosen only when the CPU reports AVX2 (see `update`).
            unsafe { avx2::forward(us, w_us) as i64 + avx2::forward(them, w_them) as i64 }
        }
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 => {
            // SAFETY: chosen only when the CPU reports AVX-512 F and BW.
            unsafe { avx512::forward(us, w_us) as i64 + avx512::forward(them, w_them) as i64 }
        }
        _ => scalar_forward(us, w_us) as i64 + scalar_forward(them, w_them) as i64,
    }
}

fn scalar_update(dst: &mut [i16; HIDDEN], src: &[i16; HIDDEN], adds: &Rows, subs: &Rows) {
    *dst = *src;
    for row in &adds.0[..adds.1] {
        for (d, w) in dst.iter_mut().zip(row.iter()) {
            *d = d.wrapping_add(*w);
        }
    }
    for row in &subs.0[..subs.1] {
        for (d, w) in dst.iter_mut().zip(row.iter()) {
            *d = d.wrapping_sub(*w);
        }
    }
}

fn scalar_forward(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
    let mut sum = 0i32;
    for (&a, &w) in acc.iter().zip(w.iter()) {
        let v = a.clamp(0, QA as i16) as i32;
        sum = sum.wrapping_add(v * v * w as i32);
    }
    sum
}

/// Calls `$fixed::<A, S>(dst, src, &adds.0, &subs.0)` with the row counts of `adds` and `subs`
/// (each at most two: a move adds and removes at most two pieces) as constants, so that the
/// kernel's row loops unroll; over a variable count their overhead cost more instructions than
/// the additions themselves.
#[cfg(target_arch = "x86_64")]
macro_rules! by_counts {
    ($fixed:ident, $dst:expr, $src:expr, $adds:expr, $subs:expr) => {{
        let (dst, src, adds, subs) = ($dst, $src, $adds, $subs);
        match (adds.1, subs.1) {
            (1, 1) => $fixed::<1, 1>(dst, src, &adds.0, &subs.0),
            (1, 2) => $fixed::<1, 2>(dst, src, &adds.0, &subs.0),
            (2, 2) => $fixed::<2, 2>(dst, src, &adds.0, &subs.0),
            (0, 0) => $fixed::<0, 0>(dst, src, &adds.0, &subs.0),
            (0, 1) => $fixed::<0, 1>(dst, src, &adds.0, &subs.0),
            (1, 0) => $fixed::<1, 0>(dst, src, &adds.0, &subs.0),
            (2, 0) => $fixed::<2, 0>(dst, src, &adds.0, &subs.0),
            (2, 1) => $fixed::<2, 1>(dst, src, &adds.0, &subs.0),
            (0, 2) => $fixed::<0, 2>(dst, src, &adds.0, &subs.0),
            _ => unreachable!("a move adds and removes at most two pieces"),
        }
    }};
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{HIDDEN, QA, Rows};
    use std::arch::x86_64::*;

    const LANES: usize = 16;
    const _: () = assert!(HIDDEN.is_multiple_of(LANES));

    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update(dst: &mut [i16; HIDDEN], src: &[i16; HIDDEN], adds: &Rows, subs: &Rows) {
        // SAFETY: the caller guarantees AVX2, which `fixed` needs.
        unsafe { by_counts!(fixed, dst, src, adds, subs) }
    }

    /// `dst = src + adds[..A] - subs[..S]`.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn fixed<const A: usize, const S: usize>(
        dst: &mut [i16; HIDDEN],
        src: &[i16; HIDDEN],
        adds: &[&[i16; HIDDEN]; 2],
        subs: &[&[i16; HIDDEN]; 2],
    ) {
        for c in (0..HIDDEN).step_by(LANES) {
            // SAFETY: `c + LANES <= HIDDEN` for every array here (HIDDEN is a multiple of
            // LANES); unaligned loads and stores have no alignment requirement.
            unsafe {
                let mut x = _mm256_loadu_si256(src.as_ptr().add(c).cast());
                for row in &adds[..A] {
                    x = _mm256_add_epi16(x, _mm256_loadu_si256(row.as_ptr().add(c).cast()));
                }
                for row in &subs[..S] {
                    x = _mm256_sub_epi16(x, _mm256_loadu_si256(row.as_ptr().add(c).cast()));
                }
                _mm256_storeu_si256(dst.as_mut_ptr().add(c).cast(), x);
            }
        }
    }

    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn forward(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for c in (0..HIDDEN).step_by(LANES) {
            // SAFETY: `c + LANES <= HIDDEN`; unaligned loads.
            let (a, wv) = unsafe {
                (
                    _mm256_loadu_si256(acc.as_ptr().add(c).cast()),
                    _mm256_loadu_si256(w.as_ptr().add(c).cast()),
                )
            };
            let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
            // v * w fits i16 for weights within the clip (255 * 127); madd then sums pairs of
            // v * (v * w) exactly into i32.
            let vw = _mm256_mullo_epi16(v, wv);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(vw, v));
        }
        let lo = _mm256_castsi256_si128(sum);
        let hi = _mm256_extracti128_si256(sum, 1);
        let s = _mm_add_epi32(lo, hi);
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
        _mm_cvtsi128_si32(s)
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{HIDDEN, QA, Rows};
    use std::arch::x86_64::*;

    const LANES: usize = 32;
    const _: () = assert!(HIDDEN.is_multiple_of(LANES));

    /// # Safety
    /// The CPU must support AVX-512 F and BW.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn update(dst: &mut [i16; HIDDEN], src: &[i16; HIDDEN], adds: &Rows, subs: &Rows) {
        // SAFETY: the caller guarantees AVX-512 F and BW, which `fixed` needs.
        unsafe { by_counts!(fixed, dst, src, adds, subs) }
    }

    /// `dst = src + adds[..A] - subs[..S]`.
    ///
    /// # Safety
    /// The CPU must support AVX-512 F and BW.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    unsafe fn fixed<const A: usize, const S: usize>(
        dst: &mut [i16; HIDDEN],
        src: &[i16; HIDDEN],
        adds: &[&[i16; HIDDEN]; 2],
        subs: &[&[i16; HIDDEN]; 2],
    ) {
        for c in (0..HIDDEN).step_by(LANES) {
            // SAFETY: `c + LANES <= HIDDEN` for every array here; unaligned loads and stores.
            unsafe {
                let mut x = _mm512_loadu_si512(src.as_ptr().add(c).cast());
                for row in &adds[..A] {
                    x = _mm512_add_epi16(x, _mm512_loadu_si512(row.as_ptr().add(c).cast()));
                }
                for row in &subs[..S] {
                    x = _mm512_sub_epi16(x, _mm512_loadu_si512(row.as_ptr().add(c).cast()));
                }
                _mm512_storeu_si512(dst.as_mut_ptr().add(c).cast(), x);
            }
        }
    }

    /// # Safety
    /// The CPU must support AVX-512 F and BW.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn forward(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
        let zero = _mm512_setzero_si512();
        let qa = _mm512_set1_epi16(QA as i16);
        let mut sum = _mm512_setzero_si512();
        for c in (0..HIDDEN).step_by(LANES) {
            // SAFETY: `c + LANES <= HIDDEN`; unaligned loads.
            let (a, wv) = unsafe {
                (
                    _mm512_loadu_si512(acc.as_ptr().add(c).cast()),
                    _mm512_loadu_si512(w.as_ptr().add(c).cast()),
                )
            };
            let v = _mm512_min_epi16(_mm512_max_epi16(a, zero), qa);
            let vw = _mm512_mullo_epi16(v, wv);
            sum = _mm512_add_epi32(sum, _mm512_madd_epi16(vw, v));
        }
        _mm512_reduce_add_epi32(sum)
    }
}
