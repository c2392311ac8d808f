"""Bit-exact numpy re-implementation of OpenCV's cv2.resize(src, (dw, dh)) with the default
interpolation INTER_LINEAR, for uint8 images with 1 or 3 (or any number of) channels.

A tidy, importable copy of the verified port in
Tests/PadEstimatorsTests/Fixtures/onnx/cv_resize_linear.py (its resize.md, beside it, writes the
algorithm out for porting; that file also holds verify(), which compares the port with cv2.resize
on random images: 0 mismatches in 3000 cases with opencv-python-headless 4.14.0.94 on x86-64).
Written from the observed behaviour of cv2 and the documented structure of OpenCV's
imgproc/src/resize.cpp (fixed-point coefficients, 11 fractional bits); no OpenCV code is copied.

The rules it reproduces:
  * same size: a copy;
  * both scale factors exactly 2 (source = 2 x destination): INTER_AREA's fast path, the rounded
    mean of each 2x2 block, (a + b + c + d + 2) >> 2;
  * otherwise per axis: f = (d + 0.5) * (src/dst) - 0.5 computed in double and stored as float32,
    s = floor(f), fraction f - s; coefficients round-half-even((1 - fraction) * 2048) and
    round-half-even(fraction * 2048). Horizontally an index left of 0 or at/after the last pixel is
    clamped with fraction 0; vertically s is kept and the rows s, s + 1 are clamped when read;
  * horizontal pass in int32: S[s] * c0 + S[s + 1] * c1;
  * vertical pass as OpenCV's SIMD code (VResizeLinearVec_32s8u), used for every column:
    t = saturate_int16(H >> 4); v = ((t0 * b0) >> 16) + ((t1 * b1) >> 16);
    out = saturate_uint8((saturate_int16(v) + 2) >> 2).

    from cv_resize import resize_linear
    small = resize_linear(crop, 80, 80)      # == cv2.resize(crop, (80, 80))
"""
import numpy as np

COEF_BITS = 11
COEF_SCALE = 1 << COEF_BITS  # 2048


def axis_coefficients(src_n, dst_n, clamp):
    """Per destination index: source index s and the two fixed-point coefficients (c0, c1).

    clamp=True is the horizontal rule (an index left of 0 or at/after the last pixel gets s
    clamped and fraction 0); clamp=False is the vertical rule (s and fraction kept as computed;
    the rows are clamped later, when they are read)."""
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
    """cv2.resize(src, (dw, dh)) (INTER_LINEAR) for a uint8 HxW or HxWxC array; returns a new
    uint8 array of shape (dh, dw) or (dh, dw, C)."""
    if src.dtype != np.uint8:
        raise TypeError("resize_linear needs uint8 pixels, got %s" % src.dtype)
    sh, sw = src.shape[:2]
    if sh < 1 or sw < 1 or dw < 1 or dh < 1:
        raise ValueError("empty image or size: %dx%d -> %dx%d" % (sw, sh, dw, dh))
    cn = 1 if src.ndim == 2 else src.shape[2]
    out_shape = (dh, dw) if src.ndim == 2 else (dh, dw, cn)
    if (sw, sh) == (dw, dh):                       # same size: plain copy
        return np.array(src, copy=True)
    S = src.reshape(sh, sw, cn).astype(np.int64)
    if sw == 2 * dw and sh == 2 * dh:              # both scale factors exactly 2: INTER_AREA fast path
        s4 = S[0::2, 0::2] + S[0::2, 1::2] + S[1::2, 0::2] + S[1::2, 1::2]
        return ((s4 + 2) >> 2).astype(np.uint8).reshape(out_shape)
    sx, a0, a1 = axis_coefficients(sw, dw, clamp=True)
    sy, b0, b1 = axis_coefficients(sh, dh, clamp=False)
    sx1 = np.minimum(sx + 1, sw - 1)               # read only when a1 != 0, i.e. sx1 == sx + 1
    # Only the source rows the vertical pass reads are filtered horizontally (same values as
    # filtering every row: each row is independent).
    r0 = np.clip(sy, 0, sh - 1)
    r1 = np.clip(sy + 1, 0, sh - 1)
    rows = np.unique(np.concatenate([r0, r1]))
    Sr = S[rows]
    # horizontal pass: int32 per source row, per destination element (dw * cn per row)
    H = (Sr[:, sx, :] * a0[None, :, None] + Sr[:, sx1, :] * a1[None, :, None]).reshape(len(rows), dw * cn)
    H0 = H[np.searchsorted(rows, r0)]
    H1 = H[np.searchsorted(rows, r1)]
    B0 = b0[:, None]
    B1 = b1[:, None]
    # OpenCV's SIMD formula (VResizeLinearVec_32s8u); cv2 uses it for every column
    t0 = np.clip(H0 >> 4, -32768, 32767)           # v_shr<4> then saturating pack to int16
    t1 = np.clip(H1 >> 4, -32768, 32767)
    v = ((t0 * B0) >> 16) + ((t1 * B1) >> 16)      # v_mul_hi (floor), int16 add
    v = (np.clip(v, -32768, 32767) + 2) >> 2       # v_rshr_pack_u<2>
    return np.clip(v, 0, 255).astype(np.uint8).reshape(out_shape)
