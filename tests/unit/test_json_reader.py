"""The library's one JSON reader (``_json.py``): its bounds hold on every Python, its errors are its own."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from route_planning_async._json import MAX_DEPTH, MAX_DIGITS, JSONInputError, _depth, read_json


def test_nesting_is_read_to_the_bound_and_refused_past_it_without_recursion() -> None:
    assert read_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    for text in ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), '{"a":' * 100_000, "[" * 1_000_000):
        with pytest.raises(JSONInputError, match="nests too deep") as caught:
            read_json(text)
        assert not caught.value.syntax
    # Brackets inside strings, escaped quotes included, count for nothing.
    assert read_json('["' + '\\"[' * 5000 + '"]') == ['"[' * 5000]


def test_numbers_are_bounded_in_digits_and_finite() -> None:
    assert read_json("9" * MAX_DIGITS) == int("9" * MAX_DIGITS)
    assert read_json('"' + "9" * 5000 + '"') == "9" * 5000
    for text in ("9" * (MAX_DIGITS + 1), "-" + "9" * 5000, "[1e400]", "NaN", "-Infinity"):
        with pytest.raises(JSONInputError):
            read_json(text)


def test_a_byte_order_mark_is_skipped_and_a_repeated_key_refused_when_asked() -> None:
    assert read_json("\ufeff[1]") == [1]
    assert read_json(b"\xef\xbb\xbf[1]") == [1]
    assert read_json('{"a": 1, "a": 2}') == {"a": 2}
    with pytest.raises(JSONInputError, match="names the key 'a' twice"):
        read_json('{"a": 1, "a": 2}', unique_keys=True)


def test_a_text_that_is_not_json_says_where() -> None:
    with pytest.raises(JSONInputError, match="is not JSON: Expecting") as caught:
        read_json("[1,")
    assert caught.value.syntax
    assert caught.value.detail is not None
    with pytest.raises(JSONInputError, match="not UTF-8"):
        read_json(b"\xff\xff[]")


_TEXT = st.text(alphabet=st.sampled_from('ab"\\[]{}é\n'), max_size=6)
_VALUES = st.recursive(
    st.none() | st.integers() | _TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=12,
)


def _true_depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_true_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_true_depth, value), default=0)
    return 0


@settings(max_examples=300, derandomize=True)
@given(_VALUES)
def test_the_depth_is_measured_outside_strings_whatever_they_hold(value: object) -> None:
    for text in (json.dumps(value), json.dumps(value, ensure_ascii=False)):
        assert _depth(text.encode()) == _true_depth(value)


def _outcome(data: str | bytes | bytearray) -> object:
    try:
        return ("value", read_json(data))
    except JSONInputError as exc:
        return ("refused", str(exc), exc.syntax)


@pytest.mark.parametrize(
    "text",
    [
        '{"a": [1, 2.5, "x"]}',
        "[1]\n",
        '{"a": 1} \r\n\t',
        '{"a": 1} x',
        "[1] [2]",
        "[1,",
        "[1\u00a0]",
        '{"a": 1e400}',
        "[1E+400]",
        "[-1e-400]",
        "[1E99, 2e+99]",
        '{"n": ' + "9" * (MAX_DIGITS + 1) + "}",
        '["' + "9" * (MAX_DIGITS + 1) + '"]',
        "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
        "[" * MAX_DEPTH + "]" * MAX_DEPTH,
        '{"a": NaN}',
        '{"a": 1, "a": 2}',
    ],
)
def test_an_answer_read_from_bytes_reads_as_its_text_does(text: str) -> None:
    # Bytes opening with { or [ (every answer) take the short way; a text, or bytes in another
    # encoding, the general one: the value or the refusal is the same.
    expected = _outcome(text)
    assert _outcome(text.encode()) == expected
    assert _outcome(bytearray(text.encode())) == expected
    assert _outcome(text.encode("utf-16-le")) == expected
    if expected[0] == "value":
        assert expected == ("value", json.loads(text)) == _outcome(" " + text)


def test_bytes_that_open_like_an_answer_but_are_not_utf8_are_refused() -> None:
    with pytest.raises(JSONInputError, match="not UTF-8"):
        read_json(b'{"a": "\xff"}')
    # "{" in UTF-16: a zero byte second, read in its own encoding.
    assert read_json('{"a": 1}'.encode("utf-16-le")) == {"a": 1}


@settings(max_examples=200, derandomize=True)
@given(_VALUES, st.sampled_from(["", " ", "\n", "\r\n\t "]))
def test_any_value_reads_the_same_from_bytes_and_from_text(value: object, tail: str) -> None:
    text = json.dumps(value, ensure_ascii=False) + tail
    assert read_json(text.encode()) == read_json(text) == json.loads(text)
