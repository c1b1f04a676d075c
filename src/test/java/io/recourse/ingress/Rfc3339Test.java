package io.recourse.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class Rfc3339Test {

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
            "2026-06-01T12:00:00Z, 2026-06-01T12:00:00Z",
            "2026-06-01t12:00:00z, 2026-06-01T12:00:00Z",
            "2026-06-01 12:00:00Z, 2026-06-01T12:00:00Z",
            "2026-06-01T14:00:00.25+02:00, 2026-06-01T12:00:00.250Z",
            "2026-06-01T12:00:00.123456789Z, 2026-06-01T12:00:00.123456789Z",
            "2026-06-01T12:00:00.1-00:00, 2026-06-01T12:00:00.100Z",
            "2024-02-29T23:59:59.999999999-18:00, 2024-03-01T17:59:59.999999999Z",
            "2000-02-29T00:00:00+18:00, 2000-02-28T06:00:00Z",
            "0000-01-01T00:00:00Z, 0000-01-01T00:00:00Z",
            "9999-12-31T23:59:59+18:00, 9999-12-31T05:59:59Z",
            "1969-12-31T23:59:59Z, 1969-12-31T23:59:59Z",
            "2026-06-01T12:00:00+05:45, 2026-06-01T06:15:00Z"})
    void aValidDateTimeIsReadAsItsUtcInstant(String text, String utc) {
        assertThat(Rfc3339.parse(text)).isEqualTo(Instant.parse(utc));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "2026-02-29T12:00:00Z", "1900-02-29T12:00:00Z", "2026-04-31T12:00:00Z", "2026-02-30T12:00:00Z",
            "2026-00-10T12:00:00Z", "2026-13-10T12:00:00Z", "2026-06-00T12:00:00Z", "2026-06-01T24:00:00Z",
            "2026-06-01T12:60:00Z", "2026-06-01T23:59:60Z", "2026-06-01T12:00:00", "2026-06-01T12:00Z",
            "2026-06-01T12:00:00.Z", "2026-06-01T12:00:00.1234567890Z", "2026-06-01T12:00:00+18:01", "2026-06-01T12:00:00-23:00",
            "2026-06-01T12:00:00+05:60", "2026-06-01T12:00:00+0200", "2026-06-01T12:00:00+02", "2026-06-01X12:00:00Z",
            "2026-06-01T12:00:00ZZ", "2026-06-01T12:00:00 Z", "+2026-06-01T12:00:00Z", "2026-6-01T12:00:00Z",
            "2026-06-01T12:00:0\u0663Z", "2026-06-01T12:00:00\u221202:00", "", "yesterday"})
    void anythingElseIsNotADateTime(String text) {
        assertThat(Rfc3339.parse(text)).isNull();
    }
}
