"""The compiled number scanner of skewlearn.datasets._parse against Python's ``float``.

Every token the scanner accepts as exact (kind 1) must be bit-identical to ``float``
(correctly rounded, -0.0 included); tokens outside its fast paths must be reported as
hard (kind 2, converted with ``float`` by the caller) or as not a number (kind 0) exactly
when ``float`` rejects them. The eight-byte (SWAR) path and the digit-by-digit path are
both exercised: each token is scanned once with room after it and once at the very end
of the buffer (where the eight-byte loads are not allowed).

Long numbers (up to 19 significant digits, any exponent) are converted by Eisel–Lemire
(``_parse._eisel_lemire``): full-precision writes (``repr``, ``%.17g``, ``np.savetxt``'s
``%.18e``, ``%.19g``) of doubles, digit strings with random exponents and a list of known
hard cases must be ``float``'s bits, a value the parser accepts is never infinite (an
overflow stays hard, for the readers' message), and the full-precision writes of ordinary
data must not fall back to ``float`` (else the conversion would be right but useless).
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from skewlearn.datasets import _parse, readers


@njit
def _scan(buf, pos, end):
    return _parse._scan_number(_parse._address(buf), pos, end, buf.shape[0])


@njit
def _digits(buf, pos):
    return _parse._digits8(_parse._address(buf), pos)


@njit
def _decimal(buf, pos):
    return _parse._decimal8(_parse._address(buf), pos)


def _check(token: str) -> None:
    text = token.encode()
    try:
        expected = float(token)
    except ValueError:
        expected = None
    # with room after the token (eight-byte loads) and with the token at the buffer's end
    for pad in (b"\n" + b"9" * 20, b"\n"):
        buf = np.frombuffer(text + pad, dtype=np.uint8)
        end = len(text) + 1
        v, j, kind, is_int = _scan(buf, 0, end)
        if kind == 0:
            assert j == 0 and expected is None, token
            continue
        assert j == len(text), (token, j)  # the whole token was read
        assert expected is not None, token
        if kind == 1:
            assert math.isfinite(v), token  # an overflow is hard: the readers' message
            got = np.array([v]).view(np.int64)[0]
            assert got == np.array([expected]).view(np.int64)[0], (token, v, expected)
        else:
            assert kind == 2, token
        assert is_int == (token.lstrip("+-").isdigit()), token


short = st.text(alphabet="0123456789", min_size=0, max_size=9)
longer = st.text(alphabet="0123456789", min_size=1, max_size=25)


@st.composite
def tokens(draw):
    sign = draw(st.sampled_from(["", "-", "+"]))
    whole = draw(st.one_of(short, longer))
    point = draw(st.sampled_from(["", "."]))
    frac = draw(st.one_of(short, longer)) if point else ""
    exp = draw(
        st.one_of(
            st.just(""),
            st.integers(-340, 340).map(lambda e: f"e{e:+d}"),
            st.integers(0, 30).map(lambda e: f"E{e}"),
        )
    )
    return sign + whole + point + frac + exp


@settings(max_examples=3000, deadline=None)
@given(tokens())
def test_scanned_tokens_are_pythons_floats(token):
    _check(token)


@settings(max_examples=1000, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_repr_of_any_double_round_trips(x):
    _check(repr(x))  # 17 significant digits, subnormals, huge exponents
    _check(f"{x:.4f}")  # short decimals: the eight-byte path
    _check(f"{x:.7g}")


def test_edge_tokens():
    for token in [
        "0", "-0", "+0", "0.0", "-0.0", "-0.0000", "5.", ".5", "-.5", "+.5", ".", "-", "+",
        "1234567", "12345678", "1234567.1234567", "1234567.12345678", "9007199254740993",
        "0.1", "0.3", "2.2250738585072014e-308", "4.9e-324", "2.5e-324", "1e-400",
        "1.7976931348623157e308", "1e22", "1e23", "123456789012345678901234567890",
        "00000001.50000000", "1e", "1e+", "-1.5E-3", "7.0e0",
    ]:  # fmt: skip
        _check(token)


@settings(max_examples=500, deadline=None)
@given(st.binary(min_size=8, max_size=8))
def test_digits8_counts_and_values_leading_digits(raw):
    buf = np.frombuffer(raw, dtype=np.uint8)
    k, value = _digits(buf, 0)
    lead = 0
    while lead < 8 and 48 <= raw[lead] <= 57:
        lead += 1
    assert k == lead
    if k < 8:
        assert value == (int(raw[:k]) if k else 0)


_DIGITS = b"0123456789"


def _decimal_reference(raw: bytes):
    """What ``_decimal8`` must return for these eight bytes, by plain byte tests."""
    a = next((q for q in range(8) if raw[q] not in _DIGITS), None)
    if a is None or raw[a] != ord("."):
        return None
    b = next((q for q in range(a + 1, 8) if raw[q] not in _DIGITS), None)
    if b is None or b < 2 or raw[b] in b"eE":
        return None
    return float(raw[:b].decode()), b


# bytes that sit next to digits: points, exponents, signs, blanks, separators, and bytes
# whose carries or borrows would cross into a neighbour in a careless SWAR test
_NEAR = b"0123456789..eE+-: \t\n\r,#/:\x00\x7f\x80\xaf\xb9\xff"


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(list(_NEAR)), min_size=8, max_size=8))
def test_decimal8_reads_exactly_the_short_decimals(byte_values):
    """The one-load path of ``_scan_number`` takes ``[digits].[digits]`` ended by any byte
    but a digit or an exponent, and its value is Python's ``float`` bit for bit."""
    raw = bytes(byte_values)
    buf = np.frombuffer(raw + b"\n" * 8, dtype=np.uint8)
    ok, v, e = _decimal(buf, 0)
    expected = _decimal_reference(raw)
    if expected is None:
        assert not ok, raw
        return
    assert ok, raw
    assert e == expected[1], raw
    assert np.array([v]).view(np.int64)[0] == np.array([expected[0]]).view(np.int64)[0], raw


_FULL = [repr, "{:.17g}".format, "{:.18e}".format, "{:.19g}".format, "{:.16e}".format]


@settings(max_examples=2000, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_full_precision_writes_of_any_double_are_its_bits(x):
    for write in _FULL:
        _check(write(x))


@st.composite
def long_tokens(draw):
    """1 to 19 significant digits (the Eisel–Lemire range) and a few more, with leading
    and trailing zeros, the point anywhere and an exponent from -420 to 420."""
    digits = draw(st.text(alphabet="0123456789", min_size=1, max_size=21))
    lead = "0" * draw(st.integers(0, 4))
    trail = "0" * draw(st.integers(0, 4))
    body = lead + digits + trail
    at = draw(st.integers(0, len(body)))
    sign = draw(st.sampled_from(["", "-"]))
    exp = draw(st.integers(-420, 420))
    return f"{sign}{body[:at]}.{body[at:]}e{exp}"


@settings(max_examples=3000, deadline=None)
@given(long_tokens())
def test_long_digit_strings_with_any_exponent_are_pythons_floats(token):
    _check(token)


def test_known_hard_cases():
    """Halfway cases, the edges of the normal and subnormal ranges, overflow, underflow
    to (signed) zero, 19 and 20 digits, exact values written with trailing zeros."""
    for token in [
        "9007199254740993", "9007199254740993.0", "9007199254740995", "4503599627370497.5",
        "9007199254740992.999999", "2.2250738585072011e-308", "2.2250738585072012e-308",
        "2.2250738585072014e-308", "2.225073858507201e-308", "4.9406564584124654e-324",
        "2.4703282292062327e-324", "2.4703282292062328e-324", "1.7976931348623157e308",
        "1.7976931348623158e308", "1.7976931348623159e308", "1e308", "1e309", "-1e309",
        "1e-342", "1e-343", "9999999999999999999e-343", "9999999999999999999e-344",
        "1e-400", "-1e-400", "-0e400", "0e-400", "-0.000000000000000000e+00",
        "9999999999999999999", "18446744073709551615", "18446744073709551616",
        "3.000000000000000000e+00", "8.672367567484189000e+15", "5.613516554110232500e+14",
        "2.98023223876953125e-08", "1.00000000000000011102230246251565404236316680908203125",
        "7.2057594037927933e16", "1.448997445238699", "0.1000000000000000055511151231257827",
        "123456789012345678e-350", "1.8446744073709551615e19", "3.0e-323", "5e-324",
        "17976931348623157e292", "1797693134862315708145274237317043567981e269",
    ]:  # fmt: skip
        _check(token)


def test_an_exponent_beyond_its_cap_cancelled_by_digits_after_the_point(tmp_path):
    """The scanner stops adding exponent digits past 10**5 (no int64 overflow); a token
    whose million zeros after the point cancel such an exponent (``0.000...015e1000001``
    is 1.5) must not be read as the capped exponent's value (0.0, silently). Found by
    probe v (session 22); the careful reader's ``float`` is the reference."""
    zeros = "0" * 1_000_000
    tokens = [
        "0." + zeros + "15e1000001",
        "-0." + zeros + "3e+0001000001",
        "0." + zeros + "1234567890123456789e1000019",
        "1e1000000",
        "1e-1000000",
        "-0e1000000",
    ]
    for token in tokens:
        _check(token)
    path = tmp_path / "long.svm"
    path.write_text(f"1 1:{tokens[0]} 2:{tokens[1]}\n-1 1:2\n", encoding="utf-8")
    X, _, _ = readers.read_libsvm(path, sparse=False)
    assert X.tolist() == [[1.5, -3.0], [2.0, 0.0]]
    assert X.tobytes() == readers._read_libsvm_careful(path, sparse=False)[0].tobytes()


def test_the_table_of_powers_of_ten_is_exact():
    """Each 128-bit entry is ``floor(10**e * 2**k)`` with ``k`` putting its top bit at 127,
    computed here with fractions and bit lengths (not the parser's ``log2(10)`` formula);
    three entries are also the ones Go's strconv publishes."""
    for e in range(_parse._P10_MIN, _parse._P10_MAX + 1):
        p = Fraction(10) ** e
        k = 127 - (p.numerator.bit_length() - p.denominator.bit_length())
        while math.floor(p * Fraction(2) ** k).bit_length() > 128:
            k -= 1
        while math.floor(p * Fraction(2) ** k).bit_length() < 128:
            k += 1
        t = math.floor(p * Fraction(2) ** k)
        i = e - _parse._P10_MIN
        assert (int(_parse._P10_HI[i]) << 64) | int(_parse._P10_LO[i]) == t, e
    for e, hi, lo in [
        (-342, 0xEEF453D6923BD65A, 0x113FAA2906A13B3F),
        (43, 0xE596B7B0C643C719, 0x6D9CCD05D0000000),
        (-189, 0x8E938662882AF53E, 0x547EB47B7282EE9C),
    ]:  # fmt: skip
        assert (_parse._P10_HI[e - _parse._P10_MIN], _parse._P10_LO[e - _parse._P10_MIN]) == (
            hi,
            lo,
        )


@njit
def _scan_many(buf, starts, ends, out, kinds):
    p = _parse._address(buf)
    for t in range(starts.shape[0]):
        v, j, kind, _ = _parse._scan_number(p, starts[t], ends[t] + 1, buf.shape[0])
        out[t] = v
        kinds[t] = kind if j == ends[t] else -1


def test_full_precision_writes_of_ordinary_data_take_the_compiled_path():
    """Doubles from 1e-300 to 1e300 written with 16 to 19 significant digits are all
    converted in the compiled parser (kind 1) and are ``float``'s bits: none falls back."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=4000) * 10.0 ** rng.integers(-300, 300, 4000)
    tokens = [w(float(v)) for w in _FULL for v in x]
    raw = ("\n".join(tokens) + "\n").encode() + b"\n" * 16
    lens = np.array([len(t) for t in tokens])
    ends = np.cumsum(lens + 1) - 1
    out, kinds = np.empty(len(tokens)), np.empty(len(tokens), dtype=np.int64)
    _scan_many(np.frombuffer(raw, dtype=np.uint8), ends - lens, ends, out, kinds)
    assert (kinds == 1).all(), [t for t, k in zip(tokens, kinds) if k != 1][:5]
    assert out.tobytes() == np.array([float(t) for t in tokens]).tobytes()
    # below 1e-342 every mantissa of up to 19 digits rounds to zero, in the compiled path
    tokens = ["1e-343", "-1e-400", "9999999999999999999e-362", "0.5e-342", "-123e-999"]
    raw = ("\n".join(tokens) + "\n").encode() + b"\n" * 16
    lens = np.array([len(t) for t in tokens])
    ends = np.cumsum(lens + 1) - 1
    out, kinds = np.empty(len(tokens)), np.empty(len(tokens), dtype=np.int64)
    _scan_many(np.frombuffer(raw, dtype=np.uint8), ends - lens, ends, out, kinds)
    assert (kinds == 1).all()
    assert out.tobytes() == np.array([float(t) for t in tokens]).tobytes()


@settings(max_examples=1500, deadline=None)
@given(
    st.floats(min_value=1e-30, max_value=1e30),
    st.sampled_from([15, 16, 17, 18]),
    st.integers(-2, 2),
)
def test_tokens_near_a_halfway_point_are_pythons_floats(x, digits, nudge):
    """The midpoint between a double and the next, written exactly and rounded to 16 to 19
    significant digits and nudged by a unit in the last place: the values that Eisel-Lemire
    may leave undecided (then the dyadic path or ``float`` decides)."""
    with localcontext() as ctx:
        ctx.prec = 1200
        mid = (Decimal(x) + Decimal(float(np.nextafter(x, np.inf)))) / 2
        _check(f"{mid:e}")  # exact: many digits, the hard path
        short = Decimal(f"{mid:.{digits}e}")
        ulp = Decimal(1).scaleb(short.adjusted() - digits)
        _check(f"{short + nudge * ulp:.{digits}e}")
