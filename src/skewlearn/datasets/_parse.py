"""Compiled parsers of LIBSVM and numeric CSV text, over the raw bytes of a file block.

These are the fast path of :mod:`skewlearn.datasets.streaming`. They read the common
syntax only and stop at the first line they do not fully understand (a missing value, a
non-ASCII byte, a malformed token, a quote but a simple quoted field's, ...), returning
its byte offset: the caller then hands that one line to the careful pure-Python reader of
:mod:`skewlearn.datasets.readers`, which either parses it or raises the error message
with the line number. So the fast path never decides that a file is malformed.

A *simple* quoted CSV field (:func:`_quoted_end`: R's ``write.csv`` labels, pandas'
``QUOTE_NONNUMERIC`` and ``QUOTE_ALL``, Excel exports) is read here, as the csv module
and ``str.strip`` read it: a quote opening the field at its first byte, the next quote
closing it just before the delimiter or the line end, ASCII text between without a line
end. Its text is the number, the label or the dropped cell. Any other quote (doubled,
after a blank, text after the closing one, a line break inside) stays the careful
reader's. The quoted branches run only where an unquoted field fails, so a file without
quotes runs the code it ran before.

Numbers are converted exactly, bit-identical to Python's ``float``. Clinger's fast path
first: a decimal mantissa below 2**53 times or divided by an exact power of ten (at most
10**22) is one correctly rounded IEEE operation. Longer numbers (up to 19 significant
digits, any exponent: ``repr``, ``%.17g``, ``np.savetxt``'s ``%.18e``) go through
Eisel–Lemire (:func:`_eisel_lemire`, a 128-bit product with a table of powers of ten),
and a dyadic value it cannot decide (an exact double such as ``561351655411023.25``)
through one integer division. What is left (more than 19 significant digits, subnormal
results, overflow, the algorithm's undecided cases) is reported as *hard* and converted
by the caller with ``float``. No fast-math here: ``arcp`` would turn the division into a
multiplication by a rounded reciprocal.

Speed (docs/benchmarks.md, "Parsing"): the digits of the common token (``idx:[-]d.dddd``,
fewer than 8 digits before and after the point, no exponent) are read eight bytes at a
time (SWAR, :func:`_digits8`) instead of one multiply-add per digit; and the inlined
helpers take the block's data pointer (:func:`_address`), not the array, because numba
increments and decrements an array's reference count (two atomic operations) at every
call of a helper that takes it — that alone cost about a third of the parse time. A
LIBSVM token of at most 16 bytes is taken whole (:func:`_token_end`): its end is found
from two loads, so the next token's position does not wait for this one's parse, and the
parse is kept only if it ends exactly there (else the token goes the usual way). A short
decimal (``-0.3574``: digits, a point, digits, at most 7 bytes after the sign) is read
from one load (:func:`_decimal8`), not one per digit run: about a quarter of the parse
time on 50 dense features with 4 decimals.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic

#: Like ``_config.NJIT`` but without fast-math (correct rounding needs exact division).
_PARSE = {"cache": True, "nogil": True, "error_model": "numpy"}
#: Small helpers, inlined into the block parsers.
_PARSE_INLINE = {**_PARSE, "inline": "always"}

_POW10 = np.array([10.0**k for k in range(23)], dtype=np.float64)
_MANT_MAX = np.uint64(2**53)
#: An integer label from here on is typed by the careful reader (a float would round it).
_LABEL_INT_MAX = float(2**53)
_U0 = np.uint64(0)
_U1 = np.uint64(1)

#: ``floor(e * log2(10)) == (_LOG2_10_Q16 * e) >> 16`` for every ``e`` of the table.
_LOG2_10_Q16 = 217706
#: The exponents of the 128-bit table of powers of ten.
_P10_MIN, _P10_MAX = -342, 308


def _powers_of_ten_128() -> tuple[np.ndarray, np.ndarray]:
    """The table of :func:`_eisel_lemire`: ``T(e) = floor(10**e * 2**(127 - L(e)))`` with
    ``L(e) = floor(e * log2(10))``, for ``_P10_MIN <= e <= _P10_MAX``, as its high and
    low 64 bits. Computed exactly with Python integers (``10**e`` shifted, or ``2**(127 -
    L)`` floor-divided by ``10**-e``), each value checked to have its top bit at 127
    (which also checks ``L`` against the exact ``floor(log2(10**e))``); about 1 ms."""
    hi = np.empty(_P10_MAX - _P10_MIN + 1, dtype=np.uint64)
    lo = np.empty_like(hi)
    for e in range(_P10_MIN, _P10_MAX + 1):
        shift = 127 - ((_LOG2_10_Q16 * e) >> 16)
        if e >= 0:
            t = 10**e << shift if shift >= 0 else 10**e >> -shift
        else:
            t = (1 << shift) // 10**-e
        if t.bit_length() != 128:
            raise AssertionError(f"the table of powers of ten is wrong at 1e{e}")
        hi[e - _P10_MIN] = t >> 64
        lo[e - _P10_MIN] = t & (2**64 - 1)
    return hi, lo


_P10_HI, _P10_LO = _powers_of_ten_128()
_C1FF = np.uint64(0x1FF)
_MANT52 = np.uint64(2**52 - 1)

_POW10_INT = np.array([10**k for k in range(9)], dtype=np.int64)
_POW10_U64 = np.array([10**k for k in range(20)], dtype=np.uint64)
_POW5_U64 = np.array([5**k for k in range(28)], dtype=np.uint64)
_POW2_NEG = np.array([2.0**-k for k in range(28)], dtype=np.float64)
_U8 = np.uint64(8)
_C30 = np.uint64(0x3030303030303030)
_C46 = np.uint64(0x4646464646464646)
_C80 = np.uint64(0x8080808080808080)
_C21 = np.uint64(0x2121212121212121)
_C23 = np.uint64(0x2323232323232323)
_C01 = np.uint64(0x0101010101010101)
_C0F = np.uint64(0x0F0F0F0F0F0F0F0F)
_C7F = np.uint64(0x7F7F7F7F7F7F7F7F)
_MASK = np.uint64(0x000000FF000000FF)
_MUL1 = np.uint64(0x000F424000000064)  # 100 + (1000000 << 32)
_MUL2 = np.uint64(0x0000271000000001)  # 1 + (10000 << 32)

# status codes
OK = 0
CAREFUL = 1  # the line at ``pos`` needs the careful reader
FULL = 2  # the table of hard values is full: convert them, then resume at ``pos``
GROW = 3  # the entry arrays are full: enlarge them, then resume at ``pos``
#: The largest 0-based column index (indices are int32); the same as ``readers.MAX_INDEX``.
_MAX_INDEX = 2**31 - 2
_SKIP = 4  # _line_head: a blank or comment-only line
_DATA = 5  # _line_head: a data line whose label was read


@intrinsic
def _load8(typingctx, buf, i):
    """The 8 bytes ``buf[i:i + 8]`` as one little-endian uint64 (an unaligned load; the
    caller guarantees ``i + 8 <= len(buf)``)."""

    def codegen(context, builder, sig, args):
        ptr = builder.gep(args[0], [args[1]])
        return builder.load(builder.bitcast(ptr, ir.IntType(64).as_pointer()), align=1)

    return types.uint64(buf, i), codegen


@intrinsic
def _address(typingctx, arr):
    """The data pointer of a 1-d uint8 array. Helpers take it instead of the array, so
    calling them costs no reference counting (the caller keeps the array alive)."""

    def codegen(context, builder, sig, args):
        return context.make_array(sig.args[0])(context, builder, args[0]).data

    return types.CPointer(types.uint8)(arr), codegen


@njit(**_PARSE_INLINE)
def _swar_value(d, k):
    """The decimal value of the ``k`` (1 to 8) digit values in the low bytes of ``d``,
    first digit lowest (the byte order of a little-endian load)."""
    bits = k * _U8
    d = d << (np.uint64(64) - bits)  # right-aligned: leading zero digits in front
    d = d * np.uint64(10) + (d >> _U8)  # pairs of digits
    d = ((d & _MASK) * _MUL1 + ((d >> np.uint64(16)) & _MASK) * _MUL2) >> np.uint64(32)
    return np.int64(d)


@njit(**_PARSE_INLINE)
def _digits8(buf, i):
    """``(k, value)``: the count ``k`` of ASCII digits that start ``buf[i:i + 8]`` and, if
    ``k < 8``, their decimal value (SWAR: eight bytes in a few integer operations).

    A byte is flagged as a non-digit if it is above ``'9'`` (``+0x46`` sets its high bit)
    or below ``'0'`` (``-0x30`` borrows into its high bit); carries and borrows only move
    towards later bytes, so the first flagged byte is exactly the first non-digit."""
    x = _load8(buf, i)
    m = ((x + _C46) | (x - _C30)) & _C80
    if m == 0:
        return 8, 0
    k = trailing_zeros(m) >> np.uint64(3)
    if k == 0:
        return 0, 0
    d = (x - _C30) & ((np.uint64(1) << (k * _U8)) - np.uint64(1))  # the k digit values
    return np.int64(k), _swar_value(d, k)


@njit(**_PARSE_INLINE)
def _decimal8(buf, i):
    """``(True, value, end)`` when ``buf[i:i + 8]`` starts with ``[digits] . [digits]``
    (at least one digit) followed by a byte that is neither a digit nor ``e``/``E``; else
    ``(False, 0.0, i)``. The caller guarantees ``i + 8 <= len(buf)``.

    The common decimal (``0.3574``) in one load instead of one per digit run: the bytes
    that are not digits are flagged exactly (no carry or borrow crosses a byte, unlike
    :func:`_digits8`'s test, whose later flags may be wrong), the first must be the point
    and the second ends the number; the digits after the point are shifted down one byte
    over it, and the run of ``k`` digits is converted at once. The value, ``mantissa /
    10**f`` with ``f`` digits after the point, is the one :func:`_scan_number`'s two-run
    path computes, so results are bit-identical.
    """
    x = _load8(buf, i)
    x7 = x & _C7F
    # a byte is flagged if its low 7 bits are above '9' or below '0', or its top bit is set
    m = ((x7 + _C46) | ~((x7 | _C80) - _C30) | x) & _C80
    if m == 0:
        return False, 0.0, i
    a = trailing_zeros(m) >> np.uint64(3)  # the point's place
    m2 = m & (m - np.uint64(1))
    if m2 == 0:
        return False, 0.0, i
    b = trailing_zeros(m2) >> np.uint64(3)  # the end's place
    if buf[i + np.int64(a)] != 46 or b < 2:
        return False, 0.0, i
    e = i + np.int64(b)
    if buf[e] == 101 or buf[e] == 69:
        return False, 0.0, i
    k = b - np.uint64(1)  # digits
    d = x & _C0F  # a digit's value is its low four bits
    low = (np.uint64(1) << (a * _U8)) - np.uint64(1)  # the digits before the point
    high = ((np.uint64(1) << (k * _U8)) - np.uint64(1)) & ~low  # after it, moved down
    v = float(_swar_value((d & low) | ((d >> _U8) & high), k)) / _POW10[k - a]
    return True, v, e


@njit(**_PARSE_INLINE)
def _token_end(buf, i):
    """Position of the first byte below ``'!'`` (a blank, a line end or a control byte) or
    above ``0x7f`` (non-ASCII: it may start a Unicode blank, which ends a token for the
    careful reader's ``str.split``) in ``buf[i:i + 16]``, or -1 (SWAR, as
    :func:`_digits8`).

    The next token's position then depends on two loads, not on parsing this token: the
    caller parses the token independently and keeps the result only if the parse ends
    exactly there, so the processor overlaps consecutive tokens. A byte is flagged if
    ``-0x21`` borrows into its high bit or that bit was set; borrows only move towards
    later bytes, so the first flagged byte is exact."""
    x = _load8(buf, i)
    m = ((x - _C21) | x) & _C80
    if m != 0:
        return i + np.int64(trailing_zeros(m) >> np.uint64(3))
    x = _load8(buf, i + 8)
    m = ((x - _C21) | x) & _C80
    if m != 0:
        return i + 8 + np.int64(trailing_zeros(m) >> np.uint64(3))
    return -1


@intrinsic
def _mul128(typingctx, a, b):
    """``(high, low)``: the 128-bit product of the uint64 ``a`` and ``b`` as two uint64
    (LLVM's i128 multiply: one ``mul`` instruction on x86-64)."""

    def codegen(context, builder, sig, args):
        wide = ir.IntType(128)
        prod = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        low = builder.trunc(prod, ir.IntType(64))
        high = builder.trunc(builder.lshr(prod, ir.Constant(wide, 64)), ir.IntType(64))
        return context.make_tuple(builder, sig.return_type, [high, low])

    return types.UniTuple(types.uint64, 2)(types.uint64, types.uint64), codegen


@intrinsic
def _from_bits(typingctx, bits):
    """The float64 whose IEEE 754 bit pattern is the uint64 ``bits``."""

    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], ir.DoubleType())

    return types.float64(types.uint64), codegen


@njit(**_PARSE_INLINE)
def _eisel_lemire(mant, e10):
    """``(True, w * 10**e10)`` correctly rounded to the nearest float64 (ties to even),
    for a mantissa ``0 < w < 2**64``; ``(False, 0.0)`` where the algorithm cannot decide
    (then the caller converts the token with ``float``).

    Eisel–Lemire (D. Lemire, "Number parsing at a gigabyte per second", Software:
    Practice and Experience 51(8), 2021; its checks as in Go's ``strconv/eisel_lemire.go``,
    read to check behaviour, not copied): with ``w`` shifted left by its ``z`` leading zeros and
    ``T = floor(10**e10 * 2**(127 - L))``, ``L = floor(e10 * log2(10))``, the 128-bit
    table value of :data:`_P10_HI`/:data:`_P10_LO`, the product ``w * T`` holds the
    result's bits. Its top 64 bits times ``T``'s top 64 bits are enough unless the
    9 bits below the 54 kept are all ones and the dropped product could carry into them;
    then the low 64 bits of ``T`` are added, and if a carry is still possible: undecided.
    An exact product whose 54th bit is a tie (low bits all zero, kept bits ``...01``):
    undecided (the value may be exactly halfway). Then the 54 bits are rounded to 53
    (half up, which with the tie case excluded is ties to even), and the biased exponent
    is ``L + 1087 - z`` less one when the product's top bit is clear. Subnormal results
    and overflow are left undecided: ``float`` gives them (and ``inf``, which the readers
    refuse with the careful reader's message). Below ``10**-342`` every such ``w`` rounds
    to zero: ``w * 10**e10 < 1.85e-324``, under half the smallest subnormal.
    """
    if e10 < _P10_MIN:
        return True, 0.0
    if e10 > _P10_MAX:
        return False, 0.0
    z = leading_zeros(mant)
    w = mant << z
    k = e10 - _P10_MIN
    hi, lo = _mul128(w, _P10_HI[k])
    if (hi & _C1FF) == _C1FF and lo + w < w:  # the dropped part may carry into hi
        yhi, ylo = _mul128(w, _P10_LO[k])
        lo2 = lo + yhi
        if lo2 < lo:
            hi += _U1
        if (hi & _C1FF) == _C1FF and lo2 + _U1 == _U0 and ylo + w < w:
            return False, 0.0
        lo = lo2
    top = hi >> np.uint64(63)
    m = hi >> (top + np.uint64(9))  # 54 bits
    if lo == _U0 and (hi & _C1FF) == _U0 and (m & np.uint64(3)) == _U1:
        return False, 0.0  # perhaps exactly halfway between two doubles
    m = (m + (m & np.uint64(1))) >> np.uint64(1)
    e2 = ((_LOG2_10_Q16 * e10) >> 16) + 1087 - np.int64(z) - 1 + np.int64(top)
    if m >> np.uint64(53):  # rounding carried into a 54th bit
        m >>= np.uint64(1)
        e2 += 1
    if e2 <= 0 or e2 >= 0x7FF:  # subnormal or overflow: ``float`` decides
        return False, 0.0
    return True, _from_bits((np.uint64(e2) << np.uint64(52)) | (m & _MANT52))


@njit(**_PARSE_INLINE)
def _is_blank(c):
    return c == 32 or c == 9 or c == 11 or c == 12


@njit(**_PARSE_INLINE)
def _scan_number(buf, pos, end, size):
    """Parse ``[+-]? digits [. digits] [(e|E) [+-] digits]`` at ``pos``.

    ``buf`` is a data pointer (:func:`_address`) of an array of ``size`` bytes.

    Returns ``(value, pos_after, kind, is_int)``: kind 0 = not a number here, 1 = value
    exact (Python's ``float`` of the token, bit for bit, and finite), 2 = syntactically a
    number but left to the caller's ``float``: more than 19 significant digits, or a
    subnormal, infinite or undecided result (see the module's docstring).
    ``buf[end - 1]`` must be a line end (``\\n`` or ``\\r``): the digit loops stop there.
    """
    i = pos
    c0 = buf[i] if i < end else 0
    neg = c0 == 45
    i += (c0 == 43) | neg  # branch-free: signs are random in real data
    if i + 16 <= size:  # fast path: [digits] [. digits], < 8 of each, no exponent
        ok, v, e = _decimal8(buf, i)
        if ok:  # the whole number in one load: [digits] . [digits], 7 bytes at most
            return -v if neg else v, e, 1, False
        k, ip = _digits8(buf, i)
        if k < 8:
            j = i + k
            if buf[j] == 46:
                kf, fp = _digits8(buf, j + 1)
                e = j + 1 + kf
                if kf < 8 and k + kf > 0 and buf[e] != 101 and buf[e] != 69:
                    v = float(ip * _POW10_INT[kf] + fp) / _POW10[kf]
                    return -v if neg else v, e, 1, False
            elif k > 0 and buf[j] != 101 and buf[j] != 69:
                v = float(ip)
                return -v if neg else v, j, 1, True
    mant = np.uint64(0)
    nsig = 0  # significant digits: from the first non-zero one (> 19 may overflow: hard)
    tz = 0  # the trailing zeros among them
    # no ``i < end`` test in the digit loops: a block always ends with a line end
    s0 = i
    while True:
        d = np.uint64(buf[i]) - np.uint64(48)  # wraps below '0': one compare
        if d > 9:
            break
        mant = mant * np.uint64(10) + d
        nsig += (nsig > 0) | (d != _U0)  # (not mant != 0: mant may wrap to 0)
        tz = (tz + 1) * (d == _U0)
        i += 1
    ndig = i - s0  # digits read, leading zeros included
    frac = 0
    is_int = ndig > 0
    if buf[i] == 46:  # '.'
        is_int = False
        i += 1
        s1 = i
        while True:
            d = np.uint64(buf[i]) - np.uint64(48)
            if d > 9:
                break
            mant = mant * np.uint64(10) + d
            nsig += (nsig > 0) | (d != _U0)
            tz = (tz + 1) * (d == _U0)
            i += 1
        frac = i - s1
        ndig += frac
    if ndig == 0:
        return 0.0, pos, 0, False
    exp = 0
    if i < end and (buf[i] == 101 or buf[i] == 69):  # e E
        is_int = False
        i += 1
        eneg = False
        if i < end and (buf[i] == 43 or buf[i] == 45):
            eneg = buf[i] == 45
            i += 1
        edig = 0
        while i < end:
            d = np.int64(buf[i]) - 48
            if d < 0 or d > 9:
                break
            if exp < 100000:
                exp = exp * 10 + d
            edig += 1
            i += 1
        if edig == 0:
            return 0.0, pos, 0, False
        if exp >= 100000:  # digits past the cap were dropped, and as many digits after
            return 0.0, i, 2, is_int  # the point may cancel them: ``float`` reads it
        if eneg:
            exp = -exp
    if nsig > 19:
        return 0.0, i, 2, is_int
    e10 = exp - frac
    if tz > 0 and mant != _U0:
        # ``3.000000000000000000e+00`` (np.savetxt) is 3e0: Clinger's path, exactly; and
        # an exact value is one Eisel-Lemire cannot decide when its e10 is negative
        mant //= _POW10_U64[tz]
        e10 += tz
    if mant == _U0:
        v = 0.0
    elif mant < _MANT_MAX and 0 <= e10 <= 22:  # Clinger: one correctly rounded operation
        v = float(mant) * _POW10[e10]
    elif mant < _MANT_MAX and -22 <= e10 < 0:
        v = float(mant) / _POW10[-e10]
    else:
        ok, v = _eisel_lemire(mant, e10)
        if not ok and -27 <= e10 < 0 and mant % _POW5_U64[-e10] == _U0:
            # a dyadic value (an exact double or a tie, e.g. ``561351655411023.25``):
            # Eisel-Lemire cannot decide these, but w / 5**k is an integer and the value
            # is float(w / 5**k) * 2**-k, one correctly rounded conversion and an exact
            # scaling (the result is far from the subnormals)
            ok, v = True, float(mant // _POW5_U64[-e10]) * _POW2_NEG[-e10]
        if not ok:
            return 0.0, i, 2, is_int
    return -v if neg else v, i, 1, is_int


@njit(**_PARSE_INLINE)
def _skip_to_eol(buf, pos, end):
    """Position after the end of the line at ``pos`` and whether its bytes are plain
    (no NUL, no byte >= 0x80: the careful reader must judge those)."""
    plain = True
    i = pos
    while i < end:
        c = buf[i]
        if c == 10:
            return i + 1, plain
        if c == 13:
            if i + 1 < end and buf[i + 1] == 10:
                return i + 2, plain
            return i + 1, plain
        if c == 0 or c >= 128:
            plain = False
        i += 1
    return end, plain


@njit(**_PARSE_INLINE)
def _eol(c):
    return c == 10 or c == 13


@njit(**_PARSE_INLINE)
def _at_eol(buf, i, end):
    return i >= end or buf[i] == 10 or buf[i] == 13


@njit(**_PARSE_INLINE)
def _line_head(buf, pos, end, size):
    """The start of the LIBSVM line at ``pos``: ``(SKIP, next line, 0, False)`` for a
    blank or comment-only line of plain bytes, ``(DATA, after the label, label, is
    integer)`` for a line whose label the fast path reads, else ``(CAREFUL, pos, 0,
    False)``: the careful reader must judge the line."""
    i = pos
    while _is_blank(buf[i]):
        i += 1
    if _eol(buf[i]) or buf[i] == 35:  # blank or comment-only line
        nxt, plain = _skip_to_eol(buf, i, end)
        return (_SKIP if plain else CAREFUL), nxt, 0.0, False
    lab, j, kind, isint = _scan_number(buf, i, end, size)
    if kind == 0 or kind == 2 or not (_eol(buf[j]) or _is_blank(buf[j]) or buf[j] == 35):
        return CAREFUL, pos, 0.0, False
    if isint and abs(lab) >= _LABEL_INT_MAX:  # the careful reader keeps its digits (int)
        return CAREFUL, pos, 0.0, False
    return _DATA, j, lab, isint


@njit(**_PARSE_INLINE)
def _qid_end(buf, i, end):
    """Given ``qid:`` at ``i``: the position after its (signed) integer, or -1 when the
    token is not ``qid:<integer>`` followed by a blank, line end or ``#``."""
    if buf[i + 1] != 105 or buf[i + 2] != 100 or buf[i + 3] != 58:
        return -1
    i += 4
    ndig = 0
    if i < end and (buf[i] == 43 or buf[i] == 45):
        i += 1
    while i < end and 48 <= buf[i] <= 57:
        ndig += 1
        i += 1
    if ndig == 0 or not (_eol(buf[i]) or _is_blank(buf[i]) or buf[i] == 35):
        return -1
    return i


@njit(**_PARSE_INLINE)
def _index_digits(buf, i, size):
    """``(digits, value, position after them)`` of the index at ``i``: eight bytes at a
    time where the buffer allows, else one at a time (at most 10 digits: more cannot be
    an index, and the caller sees no colon after them)."""
    ndig, idx = 8, 0
    if i + 8 <= size:
        ndig, idx = _digits8(buf, i)
    if ndig < 8:
        return ndig, idx, i + ndig
    ndig, idx = 0, 0
    while ndig < 10:
        d = np.uint64(buf[i]) - np.uint64(48)
        if d > 9:
            break
        idx = idx * 10 + np.int64(d)
        ndig += 1
        i += 1
    return ndig, idx, i


@njit(**_PARSE)
def libsvm_block(
    buf, pos, end, offset, n_features, labels, label_int, indptr, indices, values, hard, row0,
    max_rows
):  # fmt: skip
    """Parse LIBSVM lines of ``buf[pos:end]`` into CSR arrays from row ``row0`` until
    ``max_rows`` rows are filled or the block ends.

    ``indptr[row0]`` must hold the running number of entries. Hard values are recorded
    in ``hard`` as ``(entry slot, token start, token end)`` rows.

    Returns ``(rows, n_hard, lines, pos, status, max_index)``: rows parsed (total,
    including ``row0``), hard values recorded, lines consumed, where parsing stopped,
    a status (``OK``, ``CAREFUL``: the line at ``pos`` needs the careful reader, ``FULL``,
    ``GROW``) and the largest 0-based index seen (-1 if none).
    """
    p = _address(buf)
    size = buf.shape[0]
    n = row0
    nnz = indptr[row0]
    cap = indices.shape[0]
    nh = 0
    lines = 0
    maxidx = -1
    # the fast path's bound on a 0-based index, one unsigned comparison (k < 0 wraps above)
    kcap = np.uint64(n_features) if n_features >= 0 else np.uint64(_MAX_INDEX + 1)
    while pos < end and n < max_rows:
        start = pos
        nh0 = nh
        head, i, lab, isint = _line_head(p, pos, end, size)
        if head == _SKIP:
            pos = i
            lines += 1
            continue
        if head == CAREFUL:
            return n, nh0, lines, start, CAREFUL, maxidx
        row_nnz0 = nnz
        sorted_ok = True
        last = -1
        while True:
            c = buf[i]
            if c == 32:  # the usual separator
                i += 1
                continue
            if np.uint64(c) - np.uint64(48) > 9:  # not an index: blank, end, comment, qid
                if _is_blank(c):
                    i += 1
                    continue
                if _eol(c) or c == 35:
                    break
            # index or qid
            if c == 113 and buf[i + 1] == 105 and buf[i + 2] == 100:
                i = _qid_end(p, i, end)
                if i < 0:
                    return n, nh0, lines, start, CAREFUL, maxidx
                continue
            if i + 32 <= size:  # the common token, off the chain of positions
                t = _token_end(p, i)
                if t > i:
                    ndig, idx = _digits8(p, i)
                    k = idx - offset
                    if 0 < ndig < 8 and p[i + ndig] == 58 and np.uint64(k) < kcap and nnz < cap:
                        j = i + ndig + 1
                        c0 = p[j]
                        neg = c0 == 45
                        ok, v, e = _decimal8(p, j + ((c0 == 43) | neg))
                        if ok:
                            v = -v if neg else v
                        else:
                            v, e, kind, _ = _scan_number(p, j, end, size)
                            ok = kind == 1
                        if ok and e == t:
                            if k <= last:
                                sorted_ok = False
                            last = k
                            indices[nnz] = k
                            values[nnz] = v
                            nnz += 1
                            i = t
                            continue
            ndig, idx, i = _index_digits(p, i, size)
            if ndig == 0 or buf[i] != 58:
                return n, nh0, lines, start, CAREFUL, maxidx
            i += 1
            k = idx - offset
            # beyond int32 (indices' type): the careful reader raises its message
            if k < 0 or k > _MAX_INDEX or (n_features >= 0 and k >= n_features):
                return n, nh0, lines, start, CAREFUL, maxidx
            v, j, kind, _ = _scan_number(p, i, end, size)
            c = buf[j]
            if kind == 0 or not (c == 32 or _eol(c) or _is_blank(c) or c == 35):
                return n, nh0, lines, start, CAREFUL, maxidx
            if kind == 2:
                if nh == hard.shape[0]:
                    return n, nh0, lines, start, FULL, maxidx
                hard[nh, 0] = nnz
                hard[nh, 1] = i
                hard[nh, 2] = j
                nh += 1
            i = j
            if nnz == cap:
                return n, nh0, lines, start, GROW, maxidx
            if k <= last:
                sorted_ok = False
            last = k
            indices[nnz] = k
            values[nnz] = v
            nnz += 1
        if not sorted_ok:
            if nh != nh0:  # keep hard slots simple: let the careful reader do this row
                return n, nh0, lines, start, CAREFUL, maxidx
            # insertion sort of the row, then reject repeated indices
            for a in range(row_nnz0 + 1, nnz):
                ka = indices[a]
                va = values[a]
                b = a - 1
                while b >= row_nnz0 and indices[b] > ka:
                    indices[b + 1] = indices[b]
                    values[b + 1] = values[b]
                    b -= 1
                indices[b + 1] = ka
                values[b + 1] = va
            for a in range(row_nnz0 + 1, nnz):
                if indices[a] == indices[a - 1]:
                    return n, nh0, lines, start, CAREFUL, maxidx
        if nnz > row_nnz0 and indices[nnz - 1] > maxidx:
            maxidx = indices[nnz - 1]
        # the rest of the line (a comment) must be plain
        pos, plain = _skip_to_eol(p, i, end)
        if not plain:
            return n, nh0, lines, start, CAREFUL, maxidx
        labels[n] = lab
        label_int[n] = isint
        n += 1
        indptr[n] = nnz
        lines += 1
    return n, nh, lines, pos, OK, maxidx


@njit(**_PARSE_INLINE)
def _hash_at(buf, i):
    """Position of the first ``'#'`` in ``buf[i:i + 16]``, or ``i + 16`` (SWAR: a byte of
    ``x ^ '#'*8`` is zero there; the first flagged zero byte is exact)."""
    for half in range(2):
        x = _load8(buf, i + 8 * half) ^ _C23
        m = (x - _C01) & ~x & _C80
        if m != 0:
            return i + 8 * half + np.int64(trailing_zeros(m) >> np.uint64(3))
    return i + 16


@njit(**_PARSE)
def libsvm_count_block(buf, pos, end, offset, n_features, labels, label_int, row0, max_rows):
    """The counting pass's :func:`libsvm_block`: the labels and the largest index of the
    LIBSVM lines of ``buf[pos:end]``, from row ``row0`` until ``max_rows`` rows are filled
    or the block ends, **without reading the values**.

    Labels, ``qid:`` tokens, comments and each ``index:`` are read and checked as
    :func:`libsvm_block` does (a line it would send to the careful reader for them goes
    there too); a value is skipped to the next blank, line end or ``#``, and is read and
    checked by the learning pass, which sends a bad one to the careful reader and its
    error. Skipping the values halves the counting pass (they were half of the parse
    time); a separate kernel keeps the learning pass's loop free of a "values?" branch,
    which cost it 10-15 % (docs/decisions.md, sessions 12 and 13).

    Returns ``(rows, lines, pos, status, max_index)``: rows counted (total, including
    ``row0``), lines consumed, where counting stopped, ``OK`` or ``CAREFUL`` (the line at
    ``pos`` needs the careful reader) and the largest 0-based index seen (-1 if none).
    """
    p = _address(buf)
    size = buf.shape[0]
    n = row0
    lines = 0
    maxidx = -1
    while pos < end and n < max_rows:
        start = pos
        head, i, lab, isint = _line_head(p, pos, end, size)
        if head == _SKIP:
            pos = i
            lines += 1
            continue
        if head == CAREFUL:
            return n, lines, start, CAREFUL, maxidx
        row_max = -1
        while True:
            c = buf[i]
            if _is_blank(c):
                i += 1
                continue
            if _eol(c) or c == 35:
                break
            if c == 113:  # qid:<integer>, as libsvm_block reads it
                i = _qid_end(p, i, end)
                if i < 0:
                    return n, lines, start, CAREFUL, maxidx
                continue
            if i + 32 <= size:  # the common token, whole (as in libsvm_block)
                t = _token_end(p, i)
                if t > i:
                    ndig, idx = _digits8(p, i)
                    k = idx - offset
                    if (
                        0 < ndig < 8
                        and buf[i + ndig] == 58
                        and t > i + ndig + 1
                        and k >= 0
                        and (n_features < 0 or k < n_features)
                        and _hash_at(p, i) >= t
                    ):
                        if k > row_max:
                            row_max = k
                        i = t
                        continue
            ndig, idx, i = _index_digits(p, i, size)
            if ndig == 0 or buf[i] != 58:
                return n, lines, start, CAREFUL, maxidx
            i += 1
            k = idx - offset
            if k < 0 or k > _MAX_INDEX or (n_features >= 0 and k >= n_features):
                return n, lines, start, CAREFUL, maxidx
            j = i  # the value: up to the next blank, line end or comment
            while j < end and not (_is_blank(buf[j]) or _eol(buf[j]) or buf[j] == 35):
                # a control or non-ASCII byte may be a blank to str.split (0x1c-0x1f, NBSP,
                # ...): the careful reader decides where the value ends
                if buf[j] < 32 or buf[j] >= 128:
                    return n, lines, start, CAREFUL, maxidx
                j += 1
            if j == i:  # an empty value: the careful reader's message
                return n, lines, start, CAREFUL, maxidx
            if k > row_max:
                row_max = k
            i = j
        if row_max > maxidx:
            maxidx = row_max
        pos, plain = _skip_to_eol(p, i, end)  # the rest of the line (a comment) must be plain
        if not plain:
            return n, lines, start, CAREFUL, maxidx
        labels[n] = lab
        label_int[n] = isint
        n += 1
        lines += 1
    return n, lines, pos, OK, maxidx


_C0A = np.uint64(0x0A0A0A0A0A0A0A0A)
_C0D = np.uint64(0x0D0D0D0D0D0D0D0D)
_C22 = np.uint64(0x2222222222222222)
_C27 = np.uint64(0x2727272727272727)


@njit(**_PARSE_INLINE)
def _bytes_equal(x, c):
    """The high bit of each byte of ``x`` that equals the byte repeated in ``c``, exactly
    (``(v & 0x7f) + 0x7f`` cannot carry out of a byte)."""
    v = x ^ c
    return ~(((v & _C7F) + _C7F) | v | _C7F)


@njit(**_PARSE_INLINE)
def _skip_field(p, i, end, size, delim8):
    """Where the field at ``i`` ends (its delimiter or line end, or ``end``), or -1 at a
    byte the careful reader must see (a quote, which may hide a delimiter; NUL;
    non-ASCII). Eight bytes at a time (SWAR) while they are in the buffer, each flagged
    if it is the delimiter (``delim8``: it in every byte), a line end, one of those
    bytes, or has its high bit set; then byte by byte."""
    while i + 8 <= size and i < end:
        x = _load8(p, i)
        m = (
            _bytes_equal(x, delim8) | _bytes_equal(x, _C0A) | _bytes_equal(x, _C0D)
            | _bytes_equal(x, _C22) | _bytes_equal(x, _C27) | _bytes_equal(x, np.uint64(0))
            | x
        ) & _C80  # fmt: skip
        if m != 0:
            i += np.int64(trailing_zeros(m) >> np.uint64(3))
            break
        i += 8
    if i > end:
        i = end  # the bytes before end are ordinary: the field runs to it
    delim = np.uint8(delim8 & np.uint64(0xFF))
    while i < end and p[i] != delim and p[i] != 10 and p[i] != 13:
        c = p[i]
        if c == 34 or c == 39 or c == 0 or c >= 128:
            return -1
        i += 1
    return i


@njit(**_PARSE_INLINE)
def _pad(c, delim):
    """Whether ``c`` is a blank that :func:`csv_block` strips around a field: a blank
    (space, tab, VT, FF) that is not the delimiter (a tab-delimited file keeps its tabs)."""
    return _is_blank(c) and c != delim


@njit(**_PARSE_INLINE)
def _missing_mark(buf, t0, L):
    """Whether the ``L`` bytes at ``t0`` are a missing-value marker of the careful readers
    (``readers._MISSING``: ``?`` or ``<null>``)."""
    if L == 1:
        return buf[t0] == 63
    return (
        L == 6
        and buf[t0] == 60
        and buf[t0 + 1] == 110
        and buf[t0 + 2] == 117
        and buf[t0 + 3] == 108
        and buf[t0 + 4] == 108
        and buf[t0 + 5] == 62
    )


@njit(**_PARSE_INLINE)
def _quoted_end(p, i, end, delim, start):
    """Where the closing quote of the *simple* quoted field at ``i`` is, or -1.

    Simple, as the csv module (the careful reader's, ``strict=True``) reads it: ``"`` is
    the field's first byte (the line's, or the one after a delimiter: a quote after a
    blank is text to the csv module), the next ``"`` closes it, and the bytes between hold
    no line end (a record of several lines), no NUL, no byte >= 0x80, no ``'`` and no
    separator 0x1c-0x1f (``str.strip`` removes those), as an unquoted label may not. The
    field's text is ``p[i + 1:q]``. The caller's test that a field ends at the delimiter
    or a line end refuses what may follow the closing quote otherwise: a doubled quote
    (``""`` inside the field), a blank or text, which strict parsing refuses."""
    if i >= end or p[i] != 34 or not (i == start or p[i - 1] == delim):
        return -1
    j = i + 1
    while j < end:
        c = p[j]
        if c == 34:
            return j
        if c == 10 or c == 13 or c == 0 or c == 39 or c >= 128 or 28 <= c <= 31:
            return -1
        j += 1
    return -1


@njit(**_PARSE)
def csv_block(
    buf, pos, end, delim, width, label_index, X, label_ids, table, table_len, n_table, hard, row0,
    max_rows, skip
):  # fmt: skip
    """Parse numeric delimited lines of ``buf[pos:end]`` into ``X`` from row ``row0``.

    Every field but the label and the skipped ones must be a number; the label field is
    looked up in (or added to) the token table ``table[k, :table_len[k]]`` (``n_table[0]``
    entries) and its index written to ``label_ids``. A field whose ``skip[col]`` is
    nonzero (``drop_columns``) is passed over unread, but for the bytes the careful reader
    must see (as in a label: a quote, which may hide a delimiter, NUL, non-ASCII).
    ``skip=None`` (nothing dropped) compiles a version without that test: numba prunes
    the branch for a None argument, so a file read whole costs what it did. Fields
    are stripped of blanks (space, tab, VT, FF) but the delimiter: a tab-delimited file is
    read here too.

    Hard numbers are recorded in ``hard`` as ``(row, column, token start, token end)``.

    Returns ``(rows, n_hard, lines, pos, status)``.
    """
    p = _address(buf)
    size = buf.shape[0]
    n = row0
    nh = 0
    lines = 0
    maxlen = table.shape[1]
    delim8 = np.uint64(delim) * _C01
    while pos < end and n < max_rows:
        start = pos
        nh0 = nh
        i = pos
        while i < end and _is_blank(buf[i]):
            i += 1
        if _at_eol(p, i, end):  # only blanks (tabs too: the careful reader's empty row)
            pos, plain = _skip_to_eol(p, i, end)
            lines += 1
            continue
        i = pos  # a leading tab is an empty first field of a tab-delimited line
        col = 0
        f = 0
        while True:
            while i < end and _pad(buf[i], delim):
                i += 1
            if col == label_index:
                t0 = i
                while i < end and buf[i] != delim and buf[i] != 10 and buf[i] != 13:
                    c = buf[i]
                    # quotes, NUL, non-ASCII, and the separators 0x1c-0x1f (str.strip,
                    # the careful reader's, removes them at the ends): the careful reader
                    if c == 34 or c == 39 or c == 0 or c >= 128 or 28 <= c <= 31:
                        if c != 34 or i != t0:
                            return n, nh0, lines, start, CAREFUL
                        i = _quoted_end(p, i, end, delim, start)  # a simple quoted label?
                        if i < 0:
                            return n, nh0, lines, start, CAREFUL
                        i += 1  # after the closing quote
                        break
                    i += 1
                t1 = i
                while t1 > t0 and _pad(buf[t1 - 1], delim):
                    t1 -= 1
                if t1 > t0 and buf[t0] == 34:  # quoted: its text, stripped as str.strip does
                    t0 += 1
                    t1 -= 1
                    while t0 < t1 and _is_blank(buf[t0]):
                        t0 += 1
                    while t1 > t0 and _is_blank(buf[t1 - 1]):
                        t1 -= 1
                L = t1 - t0
                if L == 0 or L > maxlen:
                    return n, nh0, lines, start, CAREFUL
                if _missing_mark(buf, t0, L):  # '?' or '<null>': the careful reader's rules
                    return n, nh0, lines, start, CAREFUL
                found = -1
                for k in range(n_table[0]):
                    if table_len[k] == L:
                        same = True
                        for q in range(L):
                            if table[k, q] != buf[t0 + q]:
                                same = False
                                break
                        if same:
                            found = k
                            break
                if found < 0:
                    if n_table[0] >= table.shape[0]:
                        return n, nh0, lines, start, CAREFUL
                    found = n_table[0]
                    for q in range(L):
                        table[found, q] = buf[t0 + q]
                    table_len[found] = L
                    n_table[0] += 1
                label_ids[n] = found
            elif skip is not None and skip[col]:  # a dropped column: only find its end
                j = _skip_field(p, i, end, size, delim8)
                if j < 0:  # perhaps a quoted field
                    j = _quoted_end(p, i, end, delim, start)
                    if j < 0:
                        return n, nh0, lines, start, CAREFUL
                    j += 1
                i = j
            else:
                v, j, kind, _ = _scan_number(p, i, end, size)
                if kind == 0:  # perhaps a quoted number ("1.5"): its text, stripped
                    q = _quoted_end(p, i, end, delim, start)
                    if q < 0:
                        return n, nh0, lines, start, CAREFUL
                    i += 1
                    while i < q and _is_blank(buf[i]):
                        i += 1
                    v, j, kind, _ = _scan_number(p, i, end, size)
                    e = j
                    while e < q and _is_blank(buf[e]):
                        e += 1
                    # a hard value (rare: over 19 digits, subnormal, ...): the careful reader
                    if kind != 1 or e != q:
                        return n, nh0, lines, start, CAREFUL
                    i = q + 1  # no blank skipped after the quote: strict csv refuses one
                else:
                    if kind == 2:
                        if nh == hard.shape[0]:
                            return n, nh0, lines, start, FULL
                        hard[nh, 0] = n
                        hard[nh, 1] = f
                        hard[nh, 2] = i
                        hard[nh, 3] = j
                        nh += 1
                    i = j
                    while i < end and _pad(buf[i], delim):
                        i += 1
                if f >= X.shape[1]:
                    return n, nh0, lines, start, CAREFUL
                X[n, f] = v
                f += 1
            col += 1
            if i < end and buf[i] == delim:
                i += 1
                if col >= width:
                    return n, nh0, lines, start, CAREFUL
                continue
            if _at_eol(p, i, end):
                break
            return n, nh0, lines, start, CAREFUL
        if col != width:
            return n, nh0, lines, start, CAREFUL
        pos, plain = _skip_to_eol(p, i, end)
        n += 1
        lines += 1
    return n, nh, lines, pos, OK


@njit(**_PARSE)
def entries_per_line(buf):
    """Average count of ``:`` per line end in ``buf`` (to size the entry arrays)."""
    colons = 0
    ends = 1
    for i in range(buf.shape[0]):
        c = buf[i]
        if c == 58:
            colons += 1
        elif c == 10:
            ends += 1
    return colons / ends
