"""Bit-exact numpy re-implementation of OpenCV's cv2.resize(src, (dw, dh)) with the default
interpolation INTER_LINEAR, for uint8 images with 1 or 3 channels (see resize.md beside this file
for the algorithm written out for porting).

Run:  python3 cv_resize_linear.py [cases] [seed]
      (numpy + opencv-python-headless 4.14.0.94; verified on x86-64 with AVX-512, default 3000 cases)
It compares resize_linear() with cv2.resize on random images and prints the mismatch counts.
Written from the observed behaviour of the installed cv2 and the documented structure of
OpenCV's imgproc/src/resize.cpp (fixed-point coefficients, 11 fractional bits); no OpenCV code
is copied here.
"""
import sys
import numpy as np

COEF_BITS = 11
COEF_SCALE = 1 << COEF_BITS  # 2048


def axis_coefficients(src_n, dst_n, clamp):
    """Per destination index: source index s, and the two short coefficients (c0, c1).

    clamp=True is the horizontal rule (an index left of 0 or at/after the last pixel gets
    s clamped and fraction 0); clamp=False is the vertical rule (s and fraction kept as
    computed; the rows are clamped later when they are read)."""
    inv_scale = dst_n / src_n          # double, as OpenCV: (double)dsize.width / ssize.width
    scale = 1.0 / inv_scale            # double
    d = np.arange(dst_n, dtype=np.float64)
    f = ((d + 0.5) * scale - 0.5).astype(np.float32)   # computed in double, stored as float
    s = np.floor(f).astype(np.int64)                    # cvFloor
    frac = (f - s.astype(np.float32)).astype(np.float32)
    if clamp:
        low = s < 0
        frac[low] = 0
        s[low] = 0
        high = s >= src_n - 1
        frac[high] = 0
        s[high] = src_n - 1
    # saturate_cast<short>(float) = round half to even
    c0 = np.rint((np.float32(1) - frac) * np.float32(COEF_SCALE)).astype(np.int64)
    c1 = np.rint(frac * np.float32(COEF_SCALE)).astype(np.int64)
    return s, c0, c1


def resize_linear(src, dw, dh):
    """cv2.resize(src, (dw, dh)) for uint8 HxW or HxWx3 (or any channel count) arrays."""
    assert src.dtype == np.uint8
    sh, sw = src.shape[:2]
    cn = 1 if src.ndim == 2 else src.shape[2]
    out_shape = (dh, dw) if src.ndim == 2 else (dh, dw, cn)
    S = src.reshape(sh, sw, cn).astype(np.int64)
    if (sw, sh) == (dw, dh):                       # same size: plain copy
        return src.copy()
    if sw == 2 * dw and sh == 2 * dh:              # both scale factors exactly 2: INTER_AREA fast path
        s4 = S[0::2, 0::2] + S[0::2, 1::2] + S[1::2, 0::2] + S[1::2, 1::2]
        return ((s4 + 2) >> 2).astype(np.uint8).reshape(out_shape)
    sx, a0, a1 = axis_coefficients(sw, dw, clamp=True)
    sy, b0, b1 = axis_coefficients(sh, dh, clamp=False)
    sx1 = np.minimum(sx + 1, sw - 1)               # read only when a1 != 0, i.e. sx1 == sx + 1
    # horizontal pass: int32 per source row, per destination element (dw*cn per row)
    H = (S[:, sx, :] * a0[None, :, None] + S[:, sx1, :] * a1[None, :, None]).reshape(sh, dw * cn)
    # vertical pass: rows sy and sy+1 clamped to [0, sh-1]
    H0 = H[np.clip(sy, 0, sh - 1)]
    H1 = H[np.clip(sy + 1, 0, sh - 1)]
    B0 = b0[:, None]
    B1 = b1[:, None]
    # OpenCV's SIMD formula (VResizeLinearVec_32s8u); the installed cv2 uses it for EVERY column
    t0 = np.clip(H0 >> 4, -32768, 32767)           # v_shr<4> then saturating pack to int16
    t1 = np.clip(H1 >> 4, -32768, 32767)
    v = ((t0 * B0) >> 16) + ((t1 * B1) >> 16)      # v_mul_hi (floor), int16 add
    v = (np.clip(v, -32768, 32767) + 2) >> 2       # v_rshr_pack_u<2>
    return np.clip(v, 0, 255).astype(np.uint8).reshape(out_shape)


def resize_linear_scalar_variant(src, dw, dh):
    """Same, but with OpenCV's scalar vertical formula (S0*b0 + S1*b1 + 2^21) >> 22 for every
    column; kept only to show (in verify) that the installed cv2 does NOT use it."""
    sh, sw = src.shape[:2]
    cn = 1 if src.ndim == 2 else src.shape[2]
    if (sw, sh) == (dw, dh) or (sw == 2 * dw and sh == 2 * dh):
        return resize_linear(src, dw, dh)
    S = src.reshape(sh, sw, cn).astype(np.int64)
    sx, a0, a1 = axis_coefficients(sw, dw, True)
    sy, b0, b1 = axis_coefficients(sh, dh, False)
    sx1 = np.minimum(sx + 1, sw - 1)
    H = (S[:, sx, :] * a0[None, :, None] + S[:, sx1, :] * a1[None, :, None]).reshape(sh, dw * cn)
    H0 = H[np.clip(sy, 0, sh - 1)]
    H1 = H[np.clip(sy + 1, 0, sh - 1)]
    v = (H0 * b0[:, None] + H1 * b1[:, None] + (1 << 21)) >> 22
    return np.clip(v, 0, 255).astype(np.uint8).reshape(src.shape[:0] + ((dh, dw) if src.ndim == 2 else (dh, dw, cn)))


def verify(cases=3000, seed=12345):
    import cv2
    rng = np.random.default_rng(seed)
    targets = [(80, 80), (320, 240), (640, 480)]
    stats = {"cases": 0, "mismatch": 0, "scalar_variant_mismatch": 0, "cn1": 0, "cn3": 0,
             "up": 0, "down": 0, "mixed": 0, "area2x": 0, "max_abs": 0}
    for i in range(cases):
        cn = 3 if i % 2 == 0 else 1
        kind = i % 10
        if kind == 9:   # exact 2x down (INTER_AREA fast path)
            dw, dh = int(rng.integers(1, 451)), int(rng.integers(1, 451))
            sw, sh = 2 * dw, 2 * dh
        else:
            sw, sh = int(rng.integers(2, 901)), int(rng.integers(2, 901))
            if kind < 6:
                dw, dh = targets[kind % 3]
            else:
                dw, dh = int(rng.integers(1, 901)), int(rng.integers(1, 901))
        shape = (sh, sw, 3) if cn == 3 else (sh, sw)
        if i % 7 == 0:   # smooth image as well as noise
            yy, xx = np.mgrid[0:sh, 0:sw]
            base = (127 + 120 * np.sin(xx / 7.0 + yy / 11.0)).astype(np.uint8)
            src = np.repeat(base[..., None], 3, 2) if cn == 3 else base
            src = np.ascontiguousarray(src)
        else:
            src = rng.integers(0, 256, shape, dtype=np.uint8)
        ref = cv2.resize(src, (dw, dh))
        mine = resize_linear(src, dw, dh)
        stats["cases"] += 1
        stats["cn%d" % cn] += 1
        if sw == 2 * dw and sh == 2 * dh:
            stats["area2x"] += 1
        elif dw >= sw and dh >= sh:
            stats["up"] += 1
        elif dw <= sw and dh <= sh:
            stats["down"] += 1
        else:
            stats["mixed"] += 1
        if not np.array_equal(ref, mine):
            stats["mismatch"] += 1
            d = int(np.abs(ref.astype(int) - mine.astype(int)).max())
            stats["max_abs"] = max(stats["max_abs"], d)
            print("MISMATCH", (sw, sh, cn), "->", (dw, dh), "max abs", d)
        if i < 500 and not np.array_equal(ref, resize_linear_scalar_variant(src, dw, dh)):
            stats["scalar_variant_mismatch"] += 1
    return stats


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 12345
    import cv2
    print("cv2", cv2.__version__, "numpy", np.__version__)
    print(verify(n, seed))
