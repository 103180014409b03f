"""The version-free machinery of a cattrs converter for the API's JSON.

Each API version registers its models and inputs with :func:`make_converter`
(the factory shape of ``cattrs.preconf``); the library never touches
``cattrs.global_converter``, so user code that customizes the global converter
cannot change how the API is read.

- Names: snake_case attributes <-> camelCase JSON keys, but for the version's
  wire names (attributes whose JSON key is not their camelCase: the key sent
  first, then every key read, in order of preference).
- Date ``{day, month, year}`` <-> :class:`datetime.date`; TimeOfDay ``{hour,
  minute}`` <-> :class:`datetime.time`; epoch seconds <-> aware UTC
  :class:`datetime.datetime`.
- Models: unknown keys are ignored and enumerated values stay strings, so newer
  answers of the service never break decoding.
- Inputs: fields left :data:`~route_planning_async.UNSET` are omitted.
- Errors: decoding raises nothing but :class:`~route_planning_async.DecodeError`,
  naming the JSON path and the value (a null where an object is required, a
  missing required key, a value of the wrong type). A null for a field the model
  types ``X | None`` is None; for any other field with a default, that default.

Speed: every model gets a structure function compiled for its class, made once
on first use (:func:`make_model_structure_fn`). cattrs' own generated functions
gather the fields into a keyword dict and call the class with it; for a page of
stops (a dozen nested models each) that call was most of the decoding time. The
compiled function instead creates the instance and stores each field in its
slot, taking JSON-native values straight from the object once their class is
checked. cattrs stays the
dispatcher: nested models, dates, epoch seconds and unions are the hooks the
converter registers, looked up once when the function is made.
"""

from __future__ import annotations

import datetime
import linecache
import types
import typing
from collections.abc import Callable, Collection, Mapping
from typing import Any, Final, TypeVar

import attrs
import cattrs
from cattrs.gen import make_dict_unstructure_fn, override

from route_planning_async._errors import DecodeError

__all__ = [
    "Codec",
    "WireNames",
    "attrs_classes",
    "camel_case",
    "json_type",
    "located",
    "make_converter",
    "make_model_structure_fn",
    "renames",
    "structure_items",
]

T = TypeVar("T")

WireNames = Mapping[str, tuple[str, ...]]
"""Attributes whose JSON key is not their camelCase: the key sent first, then every
key read (in order of preference)."""


def camel_case(name: str) -> str:
    """``address_line_one`` -> ``addressLineOne``."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def renames(cl: type, wire_names: WireNames) -> dict[str, Any]:
    """The cattrs overrides that send each field of ``cl`` under its JSON key."""
    return {
        a.name: override(rename=wire_names[a.name][0] if a.name in wire_names else camel_case(a.name))
        for a in attrs.fields(cl)
    }


def located(exc: BaseException, key: str | int | None, obj: Any) -> DecodeError:
    """The :class:`DecodeError` of ``exc``, raised while decoding ``obj[key]`` (``obj``
    itself when ``key`` is None)."""
    if isinstance(exc, DecodeError):
        return exc if key is None else exc.inside(key)
    if not isinstance(obj, dict):
        return DecodeError("", obj, f"expected a JSON object, got {json_type(obj)}")
    if key is None:
        return DecodeError("", obj, f"{type(exc).__name__}: {exc}")
    if key not in obj:
        return DecodeError(str(key), None, "a required key is missing")
    value = obj[key]
    reason = "null is not allowed here" if value is None else f"{type(exc).__name__}: {exc}"
    return DecodeError(str(key), value, reason)


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


# Scalars ---------------------------------------------------------------------


def _structure_date(value: Any, _: Any) -> datetime.date:
    if not isinstance(value, dict):
        raise DecodeError("", value, f"expected a Date object, got {json_type(value)}")
    try:
        return datetime.date(value["year"], value["month"], value["day"])
    except (KeyError, TypeError, ValueError) as exc:
        raise DecodeError("", value, f"not a Date: {exc}") from None


def _unstructure_date(value: datetime.date) -> dict[str, int]:
    return {"day": value.day, "month": value.month, "year": value.year}


def _structure_time(value: Any, _: Any) -> datetime.time:
    if not isinstance(value, dict):
        raise DecodeError("", value, f"expected a TimeOfDay object, got {json_type(value)}")
    try:
        return datetime.time(value["hour"], value["minute"])
    except (KeyError, TypeError, ValueError) as exc:
        raise DecodeError("", value, f"not a TimeOfDay: {exc}") from None


def _unstructure_time(value: datetime.time) -> dict[str, int]:
    return {"hour": value.hour, "minute": value.minute}


_from_epoch = datetime.datetime.fromtimestamp
_UTC = datetime.UTC


def _structure_epoch(value: Any, _: Any) -> datetime.datetime:
    # A stop carries up to seven times: the exact types JSON delivers are tested
    # first, the cheapest test there is (a bool, JSON's true or false, is neither).
    kind = type(value)
    exact = kind is int or kind is float
    if not exact and (isinstance(value, bool) or not isinstance(value, int | float)):
        raise DecodeError("", value, f"expected epoch seconds (a number), got {json_type(value)}")
    try:
        return _from_epoch(value, _UTC)
    except (OverflowError, OSError, ValueError) as exc:
        raise DecodeError("", value, f"not a usable epoch time: {exc}") from None


def _structure_epoch_or_none(value: Any, _: Any) -> datetime.datetime | None:
    if value is None:
        return None
    kind = type(value)
    if kind is int or kind is float:
        try:
            return _from_epoch(value, _UTC)
        except (OverflowError, OSError, ValueError):
            pass
    return _structure_epoch(value, None)


def _unstructure_epoch(value: datetime.datetime) -> int | float:
    seconds = value.timestamp()
    return int(seconds) if seconds.is_integer() else seconds


class _NativeHook:
    """The hook of a value JSON delivers as the model keeps it (a string, a number, a
    boolean, a list of strings, a free-form object): checked, and kept as it is.

    A value of another JSON type is a :class:`~route_planning_async.DecodeError`
    (``expected a string, got a number``). An integer field takes any JSON number,
    as the schemas type counts: a whole number sent as ``5.0`` is ``5``, a fraction is
    kept as sent; an integer for a number is kept. A null is None where the
    model types the field ``X | None``, and an error anywhere else (a field with a
    default takes its default: :func:`make_model_structure_fn`).

    :func:`make_model_structure_fn` recognizes it and reads such a field straight from
    the JSON object: a value whose class is :attr:`fast` is stored without a call.
    """

    __slots__ = ("fast", "nullable", "what")

    def __init__(self, fast: type, what: str, *, nullable: bool = False) -> None:
        self.fast = fast
        """The class a value is kept for without a call (``list``: its items are looked at too)."""
        self.what = what
        """What the field takes, for the error (``a string``)."""
        self.nullable = nullable
        """Whether null is None (``X | None``)."""

    def __call__(self, value: Any, _: Any = None) -> Any:
        if value is None:
            if self.nullable:
                return None
            raise DecodeError("", None, "null is not allowed here")
        fast = self.fast
        if fast is int:
            if isinstance(value, float):  # a count the schema types as a number
                return int(value) if value.is_integer() else value
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif fast is float:
            ok = isinstance(value, int | float) and not isinstance(value, bool)
        elif fast is list:  # a list of strings
            ok = isinstance(value, list)
            for index, item in enumerate(value if ok else ()):
                if not isinstance(item, str):
                    raise DecodeError("", item, f"expected a string, got {json_type(item)}").inside(index)
        else:
            ok = isinstance(value, fast) and (fast is bool or not isinstance(value, bool))
        if not ok:
            raise DecodeError("", value, f"expected {self.what}, got {json_type(value)}")
        return value

    def or_none(self) -> _NativeHook:
        """The same check, with null as None."""
        return _NativeHook(self.fast, self.what, nullable=True)


_NATIVE: Final[dict[Any, _NativeHook]] = {
    str: _NativeHook(str, "a string"),
    int: _NativeHook(int, "a number"),
    float: _NativeHook(float, "a number"),
    bool: _NativeHook(bool, "a boolean"),
    list[str]: _NativeHook(list, "an array of strings"),
    dict[str, Any]: _NativeHook(dict, "a JSON object"),
    dict[str, str]: _NativeHook(dict, "a JSON object"),
    dict[str, str | None]: _NativeHook(dict, "a JSON object"),
    dict[str, str | None] | None: _NativeHook(dict, "a JSON object", nullable=True),
}
"""The hooks of the values JSON delivers as the models keep them, by type."""


class _StrHook:
    """The hook of a ``NewType`` of ``str`` (the ids, ``PlanId``): a string, checked as
    ``str`` is (:class:`_NativeHook`), without cattrs' wrapper for the ``NewType``.

    :func:`make_model_structure_fn` recognizes it and reads such a field as a string.
    """

    def __call__(self, value: Any, _: Any = None) -> str:
        result: str = _NATIVE[str](value)
        return result


_STR: Final = _StrHook()


def _is_str_newtype(t: Any) -> bool:
    return getattr(t, "__supertype__", None) is str


class _ItemsHook:
    """The hook of a list of models: each item through the model's hook (:func:`structure_items`).

    :func:`make_model_structure_fn` recognizes it and calls :func:`structure_items` inline.
    """

    __slots__ = ("item_hook", "model")

    def __init__(self, item_hook: Callable[[Any, Any], Any], model: Any) -> None:
        self.item_hook = item_hook
        self.model = model

    def __call__(self, value: Any, _: Any) -> list[Any]:
        return structure_items(value, self.item_hook, self.model)


def _optional_member(t: Any) -> Any:
    """``X`` for ``X | None``; None for any other type."""
    if typing.get_origin(t) not in (types.UnionType, typing.Union):
        return None
    members = [a for a in typing.get_args(t) if a is not type(None)]
    return members[0] if len(members) == 1 and len(typing.get_args(t)) == 2 else None


# Model structure functions ---------------------------------------------------


def _checked(name: str, hook: _NativeHook, default: str, namespace: dict[str, Any]) -> str:
    """The expression that keeps ``v``, the JSON value of field ``name``, through ``hook``: no call
    when its class is the hook's fast one; a null for a field with a default (not ``X | None``) is
    that default."""
    namespace[f"c_{name}"], namespace[f"T_{name}"] = hook, hook.fast
    slow = f"c_{name}(v)"
    if hook.nullable or default:
        slow = f"({'None' if hook.nullable else default} if v is None else {slow})"
    if hook.fast is float:  # a number field keeps an integer as sent: no call for it either
        fast = f"v.__class__ is T_{name} or v.__class__ is int"
    elif hook.fast is list:  # a list of strings, its items' classes checked in C
        fast = "v.__class__ is list and (not v or __only_str.issuperset(map(type, v)))"
    else:
        fast = f"v.__class__ is T_{name}"
    return f"v if {fast} else {slow}"


def _keeps(hook: _NativeHook, value: Any) -> bool:
    """Whether ``hook`` keeps ``value`` as it is (a default read in place of a missing key)."""
    try:
        return hook(value) is value
    except DecodeError:
        return False


def make_model_structure_fn(
    cl: type[Any], converter: cattrs.Converter, wire_names: WireNames
) -> Callable[[Any, Any], Any]:
    """A function compiled for ``cl`` that builds it from its JSON object.

    The instance is made with ``object.__new__`` and each field is stored in its
    slot, so ``cl`` must be a slotted attrs class whose ``__init__`` does nothing
    but assign (no validators, converters, ``init=False`` fields or
    ``__attrs_post_init__``); anything else raises :class:`TypeError` here.

    For each field (JSON key: the camelCase name):

    - a missing key takes the field's default; without one, :class:`KeyError`;
    - a value JSON already gives as it is kept (strings, numbers, booleans, lists
      of strings, free-form objects, ids: :class:`_NativeHook`) is stored without a
      call when its class is the expected one, and checked by the hook otherwise;
      a null there is None for ``X | None``, the default for a field with one;
    - a list of models goes item by item through :func:`structure_items`, called
      inline;
    - ``X | None`` of a model stores None or the model;
    - every other value goes through the converter's hook for its type.

    Unknown keys are ignored. An attribute of ``wire_names`` is read from
    the first of its keys present. Any failure becomes a
    :class:`~route_planning_async.DecodeError` naming the key (the local ``k``
    holds the key being read, so the happy path pays one store per field that
    can fail).
    """
    attrs.resolve_types(cl)
    if "__slots__" not in cl.__dict__ or hasattr(cl, "__attrs_post_init__"):
        raise TypeError(f"{cl.__name__}: only slotted attrs classes without __attrs_post_init__")
    namespace: dict[str, Any] = {
        "__cl": cl,
        "__new": object.__new__,
        "__located": located,
        "__items": structure_items,
        "__absent": attrs.NOTHING,
        "__only_str": frozenset((str,)),
    }
    body = ["k = None", "get = o.get", "i = __new(__cl)"]
    for field in attrs.fields(cl):
        if field.validator is not None or field.converter is not None or not field.init:
            raise TypeError(f"{cl.__name__}.{field.name}: fields must be plain to be stored directly")
        name, required = field.name, field.default is attrs.NOTHING
        if required:
            default = ""
        elif isinstance(field.default, attrs.Factory):  # type: ignore[arg-type]
            if field.default.takes_self:
                raise TypeError(f"{cl.__name__}.{name}: a default that takes self is not supported")
            namespace[f"f_{name}"] = field.default.factory
            default = f"f_{name}()"
        else:
            namespace[f"d_{name}"] = field.default
            default = f"d_{name}"
        aliases = wire_names.get(name)
        # cattrs' own hooks of str, int, float and bool convert (``str(5)``); the models check.
        hook = _NATIVE[field.type] if field.type in _NATIVE else converter.get_structure_hook(field.type)
        if aliases is not None:
            if required or not isinstance(hook, _NativeHook):
                raise TypeError(f"{cl.__name__}.{name}: a renamed field must be a plain value with a default")
            # The first key present wins.
            body.append("v = __absent")
            for index, alias in enumerate(aliases):
                body.append(f"{'if' if index == 0 else 'elif'} {alias!r} in o:")
                body += [f"    k = {alias!r}", f"    v = o[{alias!r}]"]
            body.append(
                f"i.{name} = {default} if v is __absent else {_checked(name, hook, default, namespace)}"
            )
            continue
        key = camel_case(name)
        note_key = f"k = {key!r}"
        member = _optional_member(field.type)
        if member is not None and attrs.has(member) and (required or field.default is None):
            # X | None of a model: the None test inline, then the model's own function.
            namespace[f"h_{name}"] = converter.get_structure_hook(member)
            namespace[f"t_{name}"] = member
            body.append(note_key)
            body.append(f"v = o[{key!r}]" if required else f"v = get({key!r})")
            body.append(f"i.{name} = None if v is None else h_{name}(v, t_{name})")
            continue
        if isinstance(hook, _NativeHook | _StrHook):
            native = _NATIVE[str] if isinstance(hook, _StrHook) else hook
            checked = _checked(name, native, default, namespace)
            if required:
                body += [note_key, f"v = o[{key!r}]", f"i.{name} = {checked}"]
            elif default == f"d_{name}" and _keeps(native, field.default):
                # A missing key reads as the default, which the check keeps as it is.
                body += [note_key, f"v = get({key!r}, d_{name})", f"i.{name} = {checked}"]
            else:
                body += [note_key, f"v = get({key!r}, __absent)"]
                body.append(f"i.{name} = {default} if v is __absent else {checked}")
            continue
        if isinstance(hook, _ItemsHook):
            namespace[f"h_{name}"], namespace[f"t_{name}"] = hook.item_hook, hook.model
            value = f"__items(o[{key!r}], h_{name}, t_{name})"
        else:
            namespace[f"h_{name}"], namespace[f"t_{name}"] = hook, field.type
            value = f"h_{name}(o[{key!r}], t_{name})"
        if required:
            body += [note_key, f"i.{name} = {value}"]
        else:
            body += [note_key, f"i.{name} = {value} if {key!r} in o else {default}"]
    body.append("return i")
    lines = ["def structure(o, _=None):", "    try:"]
    lines += [f"        {line}" for line in body]
    lines += ["    except Exception as e:", "        raise __located(e, k, o) from e"]
    source = "\n".join(lines) + "\n"
    filename = f"<route_planning_async structure {cl.__module__}.{cl.__qualname__}>"
    # Registered with linecache so that tracebacks and profilers show the source.
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), namespace)
    function: Callable[[Any, Any], Any] = namespace["structure"]
    function.__name__ = function.__qualname__ = f"structure_{cl.__name__}"
    return function


# Factory ---------------------------------------------------------------------


def make_converter(
    models: Collection[type],
    inputs: Collection[type],
    wire_names: WireNames,
    hooks: Callable[[cattrs.Converter], None],
) -> cattrs.Converter:
    """A new converter for one API version's JSON.

    Args:
        models: The response models: each decoded by its compiled function
            (:func:`make_model_structure_fn`), a list of them item by item.
        inputs: The request bodies: encoded without their UNSET fields.
        wire_names: The attributes whose JSON key is not their camelCase.
        hooks: Registers the version's own hooks on the converter, last, so they
            take precedence over the generated ones.
    """
    converter = cattrs.Converter(detailed_validation=False, forbid_extra_keys=False)

    converter.register_structure_hook(datetime.datetime, _structure_epoch)
    converter.register_unstructure_hook(datetime.datetime, _unstructure_epoch)
    converter.register_structure_hook(datetime.date, _structure_date)
    converter.register_unstructure_hook(datetime.date, _unstructure_date)
    converter.register_structure_hook(datetime.time, _structure_time)
    converter.register_unstructure_hook(datetime.time, _unstructure_time)

    # Strings, numbers, booleans, lists of strings and free-form JSON (custom properties,
    # import echoes) are checked and used as JSON delivers them: walking a free-form
    # object item by item would only cost time.
    converter.register_structure_hook_factory(lambda t: t in _NATIVE, lambda t: _NATIVE[t])
    converter.register_structure_hook_func(_is_str_newtype, _STR)

    def optional_hook(t: Any) -> Callable[[Any, Any], Any]:
        # cattrs' own Optional handling dispatches on every call; resolving the
        # inner hook once keeps a page of stops cheap to decode.
        member = _optional_member(t)
        if member in _NATIVE:
            return _NATIVE[member].or_none()
        if member is datetime.datetime:
            return _structure_epoch_or_none
        inner = converter.get_structure_hook(member)

        def nested(value: Any, _: Any) -> Any:
            return None if value is None else inner(value, member)

        return nested

    converter.register_structure_hook_factory(
        lambda t: _optional_member(t) is not None and t not in _NATIVE, optional_hook
    )

    # Generated functions are made lazily (hook factories), so a class's
    # function is built after the hooks of the classes nested in it exist.
    def is_model(cl: Any) -> bool:
        return cl in models

    def is_input(cl: Any) -> bool:
        return cl in inputs

    converter.register_structure_hook_factory(
        is_model, lambda cl: make_model_structure_fn(cl, converter, wire_names)
    )

    def is_list_of_models(t: Any) -> bool:
        args = typing.get_args(t)
        return typing.get_origin(t) is list and len(args) == 1 and args[0] in models

    def list_hook(t: Any) -> Callable[[Any, Any], Any]:
        member = typing.get_args(t)[0]
        return _ItemsHook(converter.get_structure_hook(member), member)

    converter.register_structure_hook_factory(is_list_of_models, list_hook)
    converter.register_unstructure_hook_factory(
        is_model, lambda cl: make_dict_unstructure_fn(cl, converter, **renames(cl, wire_names))
    )
    converter.register_unstructure_hook_factory(
        is_input,
        lambda cl: make_dict_unstructure_fn(
            cl, converter, _cattrs_omit_if_default=True, **renames(cl, wire_names)
        ),
    )
    hooks(converter)
    return converter


def structure_items(value: Any, hook: Callable[[Any, Any], T], cl: Any) -> list[T]:
    if not isinstance(value, list):
        raise DecodeError("", value, f"expected an array, got {json_type(value)}")
    index = 0
    try:
        result = []
        for index, item in enumerate(value):  # noqa: B007 (read by the handler)
            result.append(hook(item, cl))
    except Exception as exc:
        raise located(exc, None, item).inside(index) from exc
    return result


def attrs_classes(module: types.ModuleType) -> frozenset[type]:
    """The attrs classes ``module`` exports (its ``__all__``): a version's models or inputs."""
    return frozenset(
        cl for name in module.__all__ if isinstance(cl := getattr(module, name), type) and attrs.has(cl)
    )


class Codec:
    """One API version's JSON: its converter, and the functions its client decodes and
    encodes with (each version's ``_converter.py`` publishes them as module functions).

    Args:
        models: The version's response models.
        inputs: The version's request bodies.
        wire_names: The attributes whose JSON key is not their camelCase.
        hooks: Registers the version's own hooks (:func:`make_converter`).
    """

    def __init__(
        self,
        models: Collection[type],
        inputs: Collection[type],
        wire_names: WireNames,
        hooks: Callable[[cattrs.Converter], None],
    ) -> None:
        self.models: Final = frozenset(models)
        self.inputs: Final = frozenset(inputs)
        self.wire_names: Final = wire_names
        self._hooks: Final = hooks
        self.converter: Final = self.make_converter()
        """The converter the version's client uses."""
        # Each class's hook, looked up in cattrs' dispatch once rather than per answer.
        self._structure_hooks: dict[Any, Callable[[Any, Any], Any]] = {}

    def make_converter(self) -> cattrs.Converter:
        """A new converter configured for the version's JSON."""
        return make_converter(self.models, self.inputs, self.wire_names, self._hooks)

    def structure(self, data: Any, cl: type[T]) -> T:
        """JSON data -> an instance of the model ``cl``; a :class:`DecodeError` if it cannot be."""
        hook: Callable[[Any, Any], T] = self._structure_hooks.get(cl) or self._new_hook(cl)
        try:
            return hook(data, cl)
        except DecodeError:
            raise
        except Exception as exc:
            raise located(exc, None, data) from exc

    def structure_list(self, data: Any, cl: type[T]) -> list[T]:
        """A JSON array -> a list of ``cl``; a :class:`DecodeError` naming ``[index]`` if it cannot be."""
        return structure_items(data, self._structure_hooks.get(cl) or self._new_hook(cl), cl)

    def _new_hook(self, cl: type[T]) -> Callable[[Any, Any], T]:
        """``cl``'s structure hook, looked up in cattrs' dispatch and kept."""
        hook = self._structure_hooks[cl] = self.converter.get_structure_hook(cl)
        return hook

    def unstructure(self, value: Any) -> Any:
        """A model or input -> its JSON data (camelCase; UNSET input fields omitted)."""
        return self.converter.unstructure(value)

    def wire_name(self, name: str) -> str:
        """The JSON key an attribute is sent as."""
        names = self.wire_names.get(name)
        return names[0] if names else camel_case(name)

    def read_names(self, name: str) -> tuple[str, ...]:
        """The JSON keys an attribute is read from: its camelCase, then its wire names."""
        return (camel_case(name), *self.wire_names.get(name, ()))
