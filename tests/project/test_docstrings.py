"""Every public method's docstring explains every parameter, in Google style.

``help()`` shows the docstring and the signature: each named parameter of the
signature (``self``/``cls`` aside) must be an entry of the docstring's
``Args:`` (or ``Keyword Args:``) section; for ``**options: Unpack[SomeOptions]``
each key of ``SomeOptions`` must be one instead. No docstring uses reST fields
(``:param x:``, ``:raises X:``).

And each text is written once: a field's or an option's text is its
``described`` metadata, and every docstring that lists it (an input's
``Keyword Args:``, a model's ``Attributes:``, a method's ``Keyword Args:`` for
``**fields`` or ``**options``) shows that text, so a copy that drifts fails.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import typing
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest

import route_planning_async
from route_planning_async import _namespaces, v1, webhooks
from route_planning_async._client import BaseClient, RawNamespace
from route_planning_async._docs import keywords_of
from route_planning_async._learning import LearningPolicy
from route_planning_async._pagination import Paginator
from route_planning_async._workflows import LiveEdit as SharedLiveEdit
from route_planning_async.emulator import Emulator
from route_planning_async.redis import RedisBackend
from route_planning_async.v0_2b import _inputs, _models
from route_planning_async.v0_2b import resources as _resources
from route_planning_async.v0_2b._live_edit import LiveEdit

PUBLIC_CLASSES: tuple[type, ...] = (
    route_planning_async.RoutePlanningClient,
    _resources.Plans,
    _resources.Stops,
    _resources.UnassignedStops,
    _resources.Operations,
    _resources.Depots,
    _resources.CustomStopProperties,
    _resources.Drivers,
    _resources.Routes,
    _resources.Raw,
    # The namespaces every version shares, and v1's own.
    _namespaces.OperationsNamespace,
    _namespaces.DriversNamespace,
    _namespaces.CustomStopPropertiesNamespace,
    _namespaces.RoutesNamespace,
    _namespaces.DepotsReadNamespace,
    _namespaces.PlansNamespace,
    _namespaces.StopsNamespace,
    _namespaces.UnassignedStopsNamespace,
    RawNamespace,
    v1.RoutePlanningClient,
    *(
        getattr(v1.resources, name)
        for name in v1.resources.__all__
        if isinstance(getattr(v1.resources, name), type)
    ),
    Paginator,
    route_planning_async.RetryPolicy,
    route_planning_async.RateLimits,
    route_planning_async.Rule,
    LearningPolicy,
    LiveEdit,
    SharedLiveEdit,
    BaseClient,
    RedisBackend,
    Emulator,
    route_planning_async.RateLimitBackend,
    route_planning_async.InMemoryBackend,
    route_planning_async.ImportReport,
    # The inputs a user builds: their constructors take the fields as keywords.
    route_planning_async.AddressInput,
    route_planning_async.TimingInput,
    route_planning_async.RecipientInput,
    route_planning_async.OrderInfoInput,
    route_planning_async.WeightInput,
    route_planning_async.PaymentOnDeliveryInput,
    route_planning_async.StopInput,
    route_planning_async.StopUpdate,
    route_planning_async.UnassignedStopInput,
    route_planning_async.UnassignedStopUpdate,
    route_planning_async.PlanInput,
    route_planning_async.PlanUpdate,
    route_planning_async.RouteOverridesInput,
    route_planning_async.DriverInput,
    route_planning_async.DriverUpdate,
)

PUBLIC_FUNCTIONS: tuple[Callable[..., Any], ...] = (
    webhooks.sign,
    webhooks.verify_signature,
    webhooks.parse_event,
    webhooks.webhook_handler,
)

_SECTION = re.compile(r"^([A-Z][A-Za-z ]*):\s*$")
_PARAMETER_SECTIONS = frozenset(
    {"Args", "Arguments", "Keyword Args", "Keyword Arguments", "Other Parameters"}
)
_ENTRY = re.compile(r"^ {4}(\*{0,2}[A-Za-z_]\w*)\s*(\([^)]*\))?:")
_REST_FIELD = re.compile(r"^\s*:(param|type|raises?|returns?|rtype|yields?)\b", re.MULTILINE)


def documented(doc: str) -> set[str]:
    """The names of the entries of a docstring's parameter sections (``*`` stripped)."""
    names: set[str] = set()
    section: str | None = None
    for line in inspect.cleandoc(doc).splitlines():
        header = _SECTION.match(line)
        if header:
            section = header.group(1)
            continue
        if line and not line.startswith(" "):
            section = None
            continue
        entry = _ENTRY.match(line)
        if entry and section in _PARAMETER_SECTIONS:
            names.add(entry.group(1).lstrip("*"))
    return names


def expected(function: Callable[..., Any]) -> set[str]:
    """What the docstring of ``function`` must explain: its named parameters, and
    each key of the ``TypedDict`` a ``**kwargs: Unpack[...]`` takes."""
    try:
        hints = typing.get_type_hints(function, include_extras=True)
    except NameError:
        # An annotation names a type imported for the type checker only; none of
        # those functions takes ``**kwargs: Unpack[...]`` (asserted below).
        hints = {}
    names: set[str] = set()
    for parameter in inspect.signature(function).parameters.values():
        if parameter.name in ("self", "cls"):
            continue
        hint = hints.get(parameter.name)
        if parameter.kind is inspect.Parameter.VAR_KEYWORD and hint is None:
            assert "Unpack" not in str(function.__annotations__.get(parameter.name))
        if parameter.kind is inspect.Parameter.VAR_KEYWORD and typing.get_origin(hint) is typing.Unpack:
            (options,) = typing.get_args(hint)
            names |= set(options.__required_keys__ | options.__optional_keys__)
        else:
            names.add(parameter.name)
    return names


def _unwrapped(member: object) -> Callable[..., Any] | None:
    if isinstance(member, (classmethod, staticmethod)):
        member = member.__func__
    return member if inspect.isfunction(member) else None


def public_methods() -> Iterator[tuple[str, Callable[..., Any], list[str]]]:
    """(name, function, the docstrings ``help()`` shows for it) of every public method."""
    for cls in PUBLIC_CLASSES:
        for name, member in vars(cls).items():
            function = _unwrapped(member)
            if function is None or (name.startswith("_") and name != "__init__"):
                continue
            if not function.__qualname__.startswith(f"{cls.__qualname__}."):
                continue  # not written for this class (a Protocol's placeholder __init__)
            # What help() shows: a method without a docstring shows the one it overrides
            # (a backend's implementation of the contract).
            docs = [inspect.getdoc(getattr(cls, name)) or ""]
            if name == "__init__":
                # help(cls) shows the class docstring above the constructor's signature.
                docs.insert(0, cls.__doc__ or "")
            yield f"{cls.__name__}.{name}", function, docs
        if "__init__" not in vars(cls) and "__attrs_attrs__" in vars(cls):
            # An attrs class: the generated constructor takes the fields.
            yield f"{cls.__name__}.__init__", cls.__init__, [cls.__doc__ or ""]  # type: ignore[misc]
    for function in PUBLIC_FUNCTIONS:
        yield f"{function.__module__}.{function.__name__}", function, [function.__doc__ or ""]


CASES = list(public_methods())


def test_the_walk_finds_the_public_methods() -> None:
    names = {name for name, _, _ in CASES}
    assert {
        "StopsNamespace.import_many",
        "OperationsNamespace.wait_many",
        "RoutePlanningClient.__init__",
    } <= names
    assert {"Depots.set_main", "Members.import_many", "Stops.search", "Routes.list_stops"} <= names
    assert {"RetryPolicy.__init__", "Emulator.simulate_route", "route_planning_async.webhooks.sign"} <= names
    assert len(CASES) > 100


@pytest.mark.parametrize(("name", "function", "docs"), CASES, ids=[name for name, _, _ in CASES])
def test_every_parameter_is_explained(name: str, function: Callable[..., Any], docs: list[str]) -> None:
    assert any(doc.strip() for doc in docs), f"{name} has no docstring"
    missing = expected(function) - set().union(*map(documented, docs))
    assert not missing, f"{name}: not in its Args/Keyword Args section: {sorted(missing)}"


@pytest.mark.parametrize(("name", "function", "docs"), CASES, ids=[name for name, _, _ in CASES])
def test_no_rest_fields(name: str, function: Callable[..., Any], docs: list[str]) -> None:
    for doc in docs:
        assert not _REST_FIELD.search(doc), f"{name} uses reST fields; the docstrings are Google style"


def test_the_parser_reads_google_sections() -> None:
    doc = """Summary.

    Args:
        plan_id: The plan.
        stops (list): The stops,
            on two lines.
        **fields: More.

    Keyword Args:
        timeout: Seconds.

    Returns:
        not_a_parameter: ignored.
    """
    assert documented(doc) == {"plan_id", "stops", "fields", "timeout"}


# Each text once ---------------------------------------------------------------

_ENTRY_TEXT = re.compile(r"^ {4}(\w+)(?: \([^)]*\))?:(.*)$")
_PLACEHOLDER = re.compile(r"\\\{\w+\\\}")


def section_texts(doc: str, title: str) -> dict[str, str]:
    """The text of each entry of the docstring's ``title`` section, whitespace normalised."""
    texts: dict[str, str] = {}
    inside, name = False, None
    for line in inspect.cleandoc(doc).splitlines():
        header = _SECTION.match(line)
        if header or (line and not line.startswith(" ")):
            inside = header is not None and header.group(1) == title
            name = None
            continue
        entry = _ENTRY_TEXT.match(line)
        if inside and entry:
            name = entry.group(1)
            texts[name] = entry.group(2)
        elif inside and name is not None and line.startswith(" " * 8):
            texts[name] += " " + line
    return {name: " ".join(text.split()) for name, text in texts.items()}


def shows(source: str, shown: str) -> bool:
    """``shown`` is ``source``, its ``{word}`` placeholders filled in, perhaps with its default added."""
    pattern = _PLACEHOLDER.sub(".+?", re.escape(" ".join(source.split())))
    return re.fullmatch(pattern + r"(?: Default .+\.)?", shown) is not None


def test_the_text_parser_reads_entries_on_several_lines() -> None:
    doc = """Summary.

    Keyword Args:
        notes (str | None): 1 to 2000
            characters.
        barcodes: At most 200.

    Returns:
        not_a_keyword: ignored.
    """
    assert section_texts(doc, "Keyword Args") == {
        "notes": "1 to 2000 characters.",
        "barcodes": "At most 200.",
    }
    assert shows("Rows of {rows}, by ``{key}``.", "Rows of stops, by ``recipient.external_id``.")
    assert shows("Batches.", "Batches. Default 3.")
    assert not shows("At most 200.", "At most 50.")


def _described_classes() -> list[type]:
    """Every attrs class of the package that describes its fields: the one source of their texts."""
    classes = []
    for module_info in pkgutil.walk_packages(route_planning_async.__path__, "route_planning_async."):
        if module_info.name.endswith("__main__"):
            continue
        module = importlib.import_module(module_info.name)
        for value in vars(module).values():
            defined_here = isinstance(value, type) and value.__module__ == module.__name__
            if defined_here and attrs.has(value) and keywords_of(value):
                classes.append(value)
    return classes


DESCRIBED = _described_classes()


def source_texts(keys: set[str]) -> dict[str, set[str]]:
    """The texts of ``keys`` in the described classes whose fields are all among ``keys``; of two such
    classes, one with a field set inside the other's is left out (a base class and its subclass)."""
    candidates = [{k.name: k.text for k in keywords_of(cls)} for cls in DESCRIBED]
    candidates = [fields for fields in candidates if set(fields) <= keys]
    widest = [f for f in candidates if not any(set(f) < set(other) for other in candidates)]
    texts: dict[str, set[str]] = {}
    for fields in widest:
        for name, text in fields.items():
            texts.setdefault(name, set()).add(text)
    return texts


def _unpacked_keys(function: Callable[..., Any]) -> set[str] | None:
    """The keys of the ``TypedDict`` that ``**kwargs: Unpack[...]`` of ``function`` takes, if any."""
    try:
        hints = typing.get_type_hints(function, include_extras=True)
    except NameError:
        return None
    for parameter in inspect.signature(function).parameters.values():
        hint = hints.get(parameter.name)
        if parameter.kind is inspect.Parameter.VAR_KEYWORD and typing.get_origin(hint) is typing.Unpack:
            (options,) = typing.get_args(hint)
            return set(options.__required_keys__ | options.__optional_keys__)
    return None


KEYWORD_CASES = [(name, function, keys) for name, function, _ in CASES if (keys := _unpacked_keys(function))]


def test_the_keyword_walk_finds_the_update_methods() -> None:
    names = {name for name, _, _ in KEYWORD_CASES}
    assert {"Stops.update", "Stops.live_update", "UnassignedStops.update", "DriversNamespace.update"} <= names
    assert {"Depots.update", "Members.update"} <= names
    assert {"StopsNamespace.import_many", "LiveEdit.update"} <= names


@pytest.mark.parametrize(("name", "function", "keys"), KEYWORD_CASES, ids=[n for n, _, _ in KEYWORD_CASES])
def test_every_keyword_shows_its_one_text(name: str, function: Callable[..., Any], keys: set[str]) -> None:
    sources = source_texts(keys)
    if not sources.keys() >= keys:
        pytest.skip(f"no described source for {sorted(keys - sources.keys())}")
    shown = section_texts(function.__doc__ or "", "Keyword Args")
    for key in sorted(keys):
        # Two sources of one keyword with the same fields (a create and its update, like
        # DepotInput and DepotUpdate): the method shows one of them.
        texts = sources[key]
        assert any(shows(text, shown.get(key, "")) for text in texts), (
            f"{name}, {key}: shows {shown.get(key)!r}, the text is one of {sorted(texts)!r}"
        )


def test_the_update_methods_have_their_sources() -> None:
    for name, _, keys in KEYWORD_CASES:
        if name.endswith((".update", ".live_update")):
            assert source_texts(keys).keys() >= keys, name


def test_the_client_settings_have_their_sources() -> None:
    """The settings' texts are described fields (``SettingTexts``), so their keyword test runs."""
    inits = [keys for name, _, keys in KEYWORD_CASES if name.endswith("Client.__init__")]
    assert inits
    for keys in inits:
        assert source_texts(keys).keys() >= keys


DOCUMENTED_CLASSES = [
    *[(cls, "Keyword Args") for name in _inputs.__all__ if attrs.has(cls := getattr(_inputs, name))],
    *[(cls, "Attributes") for name in _models.__all__ if attrs.has(cls := getattr(_models, name))],
]


@pytest.mark.parametrize(
    ("cls", "title"), DOCUMENTED_CLASSES, ids=[c.__name__ for c, _ in DOCUMENTED_CLASSES]
)
def test_every_field_of_an_input_or_model_shows_its_one_text(cls: type, title: str) -> None:
    shown = section_texts(cls.__doc__ or "", title)
    assert list(shown) == [field.name for field in attrs.fields(cls)]
    for keyword in keywords_of(cls):
        assert shows(keyword.text, shown[keyword.name]), (
            f"{cls.__name__}.{keyword.name}: {shown[keyword.name]!r}"
        )
