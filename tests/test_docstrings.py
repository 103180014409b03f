"""Every public method's docstring explains every parameter, in Google style.

``help()`` shows the docstring and the signature: each named parameter of the
signature (``self``/``cls`` aside) must be an entry of the docstring's
``Args:`` (or ``Keyword Args:``) section; for ``**options: Unpack[SomeOptions]``
each key of ``SomeOptions`` must be one instead. No docstring uses reST fields
(``:param x:``, ``:raises X:``).
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import route_planning_async
from route_planning_async import webhooks
from route_planning_async._learning import LearningPolicy
from route_planning_async._pagination import Paginator
from route_planning_async._workflows import LiveEdit
from route_planning_async.emulator import Emulator
from route_planning_async.redis import RedisBackend
from route_planning_async.v0_2b import resources as _resources

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
    Paginator,
    route_planning_async.RetryPolicy,
    route_planning_async.RateLimits,
    route_planning_async.Rule,
    LearningPolicy,
    LiveEdit,
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
            docs = [function.__doc__ or ""]
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
    assert {"Stops.import_many", "Operations.wait_many", "RoutePlanningClient.__init__"} <= names
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
