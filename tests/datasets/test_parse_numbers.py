"""The compiled number scanner of skewlearn.datasets._parse against Python's ``float``.

Every token the scanner accepts as exact (kind 1) must be bit-identical to ``float``
(correctly rounded, -0.0 included); tokens outside its fast paths must be reported as
hard (kind 2, converted with ``float`` by the caller) or as not a number (kind 0) exactly
when ``float`` rejects them. The eight-byte (SWAR) path and the digit-by-digit path are
both exercised: each token is scanned once with room after it and once at the very end
of the buffer (where the eight-byte loads are not allowed).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from skewlearn.datasets import _parse


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
