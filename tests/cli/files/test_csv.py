"""CSV <-> stop inputs: column matching, parsing with line numbers, the failure report."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from route_planning_async import PaymentOnDeliveryInput, WeightInput
from route_planning_async._cli._files._csv import (
    CsvError,
    parse_column_overrides,
    read_stop_csv,
    resolve_columns,
    write_failures,
)
from route_planning_async._cli._files._sample_stops import DEFAULT_DEPOT, generate_stop_fields, generate_stops
from route_planning_async.v0_2b._inputs import UNSET, RecipientInput, TimingInput

HEADER = (
    "Street,Town,Postcode,Latitude,Lon,Customer,E-mail,externalId,"
    "Window start,Window end,Duration,Note,Packages,Barcodes,Colour"
)
MIXED = f"""\
{HEADER}
1 Main St,London,E1 6AN,51.5,-0.1,Ana,ana@example.com,C1,09:00,12:00,5m,Ring twice,2,"A1;A2",red
"2 Side
Street",London,E2 7AA,,,,,C2,9:00,25:00,,,,,
3 High St,London,E3,91,0,,,C3,,,,,,,

4 Low St,London,E4,,,Bob,,C4,,,,,two,,
5 Mid St,London,E5,,,Eve,,C5,,,90,,,"x, y,,z",
"""


def test_default_columns_match_any_spelling() -> None:
    columns = resolve_columns(["Address Line One", "ZIP", "lat", "LNG", "External_ID", "phone", "extra"])
    assert columns.columns == {
        "address_line_one": "Address Line One",
        "zip": "ZIP",
        "latitude": "lat",
        "longitude": "LNG",
        "external_id": "External_ID",
        "recipient_phone": "phone",
    }
    assert columns.ignored == ("extra",)


def test_overrides_win_and_name_fields_in_any_alias() -> None:
    overrides = parse_column_overrides(["externalId=Order ref", "address=Where"])
    assert overrides == {"external_id": "Order ref", "address_line_one": "Where"}
    columns = resolve_columns(["Where", "Order ref", "address"], overrides)
    assert columns.columns["address_line_one"] == "Where"
    assert columns.columns["external_id"] == "Order ref"
    # The column 'address' is not taken twice: it feeds nothing else.
    assert columns.ignored == ("address",)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["nonsense=Column"], "unknown field 'nonsense'"),
        (["external_id"], "wants field=header"),
        (["external_id="], "wants field=header"),
        (
            ["external_id=name", "customer_id=address"],
            "maps external_id twice: to 'name' and to 'address'; a field takes one column",
        ),
    ],
)
def test_bad_overrides(options: list[str], message: str) -> None:
    with pytest.raises(CsvError, match=message):
        parse_column_overrides(options)


def test_override_of_a_missing_column() -> None:
    with pytest.raises(CsvError, match="no column 'Ref'"):
        resolve_columns(["address"], {"external_id": "Ref"})


def test_a_file_without_address_columns_is_refused() -> None:
    with pytest.raises(CsvError, match="no address column"):
        read_stop_csv("name,email\nAna,a@example.com\n")


def test_coordinates_come_in_pairs() -> None:
    with pytest.raises(CsvError, match="a longitude column is needed too"):
        read_stop_csv("address,lat\n1 Main St,51.5\n")


def test_empty_file_and_duplicate_header() -> None:
    with pytest.raises(CsvError, match="empty"):
        read_stop_csv("\n\n")
    with pytest.raises(CsvError, match="column twice: city"):
        read_stop_csv("address,city,city\n")


def test_a_quote_left_open_is_an_error_not_a_cell_that_swallows_the_rest() -> None:
    # Without strict reading, the rows after line 2 became part of its first cell.
    with pytest.raises(CsvError, match=r"^line 2: a quoted cell is never closed"):
        read_stop_csv('address,name\n"unclosed,Bob\n4 Main,Dan\n5 Main,Eve\n')
    with pytest.raises(CsvError, match=r"^line 3: ',' expected after"):
        read_stop_csv('address,name\n1 Main,Ann\n"2 Main"x,Bob\n')


def test_rows_parse_with_line_numbers_and_column_names() -> None:
    table = read_stop_csv(MIXED)
    by_line = {row.line: row for row in table.rows}
    # The quoted address spans lines 3 and 4; the blank line 6 is skipped.
    assert sorted(by_line) == [2, 3, 5, 7, 8]
    assert by_line[3].error == "column 'Window end': not a time of day: '25:00'"
    assert str(by_line[5].error).startswith("column 'Latitude': must be")
    assert by_line[7].error == "column 'Packages': expected a whole number, got 'two'"
    assert [row.line for row in table.valid] == [2, 8]
    assert table.columns.ignored == ("Colour",)

    first = by_line[2].stop
    assert first is not None
    assert first.address.address_line_one == "1 Main St"
    assert (first.address.latitude, first.address.longitude) == (51.5, -0.1)
    assert isinstance(first.timing, TimingInput)
    assert first.timing.earliest_attempt_time == datetime.time(9, 0)
    assert first.timing.estimated_attempt_duration == 300
    assert isinstance(first.recipient, RecipientInput)
    assert (first.recipient.name, first.recipient.external_id) == ("Ana", "C1")
    assert first.barcodes == ["A1", "A2"]
    assert first.package_count == 2
    assert first.notes == "Ring twice"

    last = by_line[8].stop
    assert last is not None
    assert last.barcodes == ["x", "y", "z"]
    assert last.address.latitude is UNSET
    assert isinstance(last.timing, TimingInput)
    assert last.timing.earliest_attempt_time is UNSET


def test_a_duration_is_whole_seconds_refused_not_rounded() -> None:
    table = read_stop_csv("address,duration\n1 Main St,1.5\n2 Main St,1.5m\n3 Main St,1.1h\n4 Main St,soon\n")
    assert [row.error for row in table.rows] == [
        "column 'duration': expected whole seconds (or 5m, 1h), got '1.5'",
        None,
        None,
        "column 'duration': expected whole seconds (or 5m, 1h), got 'soon'",
    ]
    assert [row.stop.timing.estimated_attempt_duration for row in table.valid] == [90, 3960]  # type: ignore[union-attr]


def test_contract_rules_name_the_column() -> None:
    table = read_stop_csv("address,notes,barcodes\n1 Main St,,\n2 Main St,ok," + "b;" + "x" * 256 + "\n")
    assert table.rows[0].error is None
    assert table.rows[1].error == "column 'barcodes' (barcodes[1]): must be 1 to 255 characters, got 256"


def test_semicolon_separated_files_and_too_many_cells() -> None:
    table = read_stop_csv("address;city\n1 Main St;London\n2 Main St;London;extra\n")
    assert table.rows[0].stop is not None
    assert table.rows[0].stop.address.city == "London"
    assert table.rows[1].error == "3 cells but the header has 2 columns"


def test_the_failure_report_reads_back(tmp_path: Path) -> None:
    source = tmp_path / "in.csv"
    source.write_text(MIXED, encoding="utf-8")
    table = read_stop_csv(source)
    report = tmp_path / "failed.csv"
    written = write_failures(report, table.header, ((row.values, row.error or "") for row in table.invalid))
    assert written == 3
    again = read_stop_csv(report)
    assert again.header == (*table.header, "error")
    # The error column is ignored, not reported as unknown, and the rows are the same.
    assert again.columns.ignored == ("Colour",)
    assert [row.values["externalId"] for row in again.rows] == ["C2", "C3", "C4"]
    assert [row.error for row in again.rows] == [row.error for row in table.invalid]
    # A report of a report keeps one error column, with the new reasons.
    second = tmp_path / "failed-again.csv"
    write_failures(second, again.header, ((row.values, "still bad") for row in again.invalid))
    assert read_stop_csv(second).header == again.header
    assert "still bad" in second.read_text(encoding="utf-8")


def test_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    source = tmp_path / "latin1.csv"
    source.write_bytes("address\nCaf\xe9 Street\n".encode("latin-1"))
    with pytest.raises(CsvError, match="not UTF-8"):
        read_stop_csv(source)


def test_generated_stops_are_seeded_and_valid() -> None:
    first = generate_stop_fields(300, seed=7)
    assert first == generate_stop_fields(300, seed=7)
    assert first != generate_stop_fields(300, seed=8)
    assert len({fields["external_id"] for fields in first}) == 300
    for fields in first:
        assert abs(fields["latitude"] - DEFAULT_DEPOT.latitude) < 0.3
        assert abs(fields["longitude"] - DEFAULT_DEPOT.longitude) < 0.4
    windows = [fields for fields in first if "earliest" in fields]
    assert 0 < len(windows) < 300
    assert all(fields["earliest"] < fields["latest"] for fields in windows)
    stops = generate_stops(300, seed=7)
    assert len(stops) == 300
    assert isinstance(stops[0].recipient, RecipientInput)
    assert stops[0].recipient.external_id == first[0]["external_id"]


def test_weight_payment_and_client_id_columns() -> None:
    table = read_stop_csv(
        "address,weight,weight_unit,payment_amount,payment_currency,client_id\n"
        "1 Main St,12.5,kilogram,1250,eur,client-7\n"
        "2 Main St,12.5,,,,\n"
        "3 Main St,1,stone,,,\n"
        "4 Main St,,,12.5,EUR,\n"
    )
    by_line = {row.line: row for row in table.rows}
    first = by_line[2].stop
    assert first is not None
    assert first.weight == WeightInput(amount=12.5, unit="kilogram")
    assert first.payment_on_delivery == PaymentOnDeliveryInput(amount=1250, currency="EUR")
    assert first.client_id == "client-7"
    assert by_line[3].error == "column 'weight_unit': a weight needs its unit (kilogram, pound or metric-ton)"
    assert str(by_line[4].error).startswith("column 'weight_unit': must be one of kilogram")
    assert by_line[5].error == "column 'payment_amount': expected a whole number, got '12.5'"
