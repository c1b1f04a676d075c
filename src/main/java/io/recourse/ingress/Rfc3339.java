package io.recourse.ingress;

import java.time.Instant;

/**
 * Reads an RFC 3339 §5.6 {@code date-time} ({@code 2026-06-01T12:00:00.250+02:00}) as a UTC
 * {@link Instant}, without regular expressions or intermediate objects (the frame envelope's
 * {@code occurred_at} is read once per record).
 *
 * <p>Accepts the shape
 * {@code \d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})} (ASCII
 * digits) with month 01–12, a day that exists in that month of the proleptic Gregorian year
 * (29 February only in leap years), hour 00–23 (no {@code 24:00}), minute 00–59, second 00–59
 * or a leap second {@code 60} whose UTC time is 23:59 (RFC 3339 §5.7; read as 23:59:59 with its
 * fraction, as {@code java.time}'s {@code ISO_INSTANT} does), and any offset RFC 3339 allows:
 * hours 00–23, minutes 00–59 ({@code -00:00} is UTC; {@code -23:59} is valid although
 * {@code java.time.ZoneOffset} stops at ±18:00).
 */
final class Rfc3339 {

    private static final int SECONDS_PER_DAY = 86_400;
    /** {@code LocalDate.of(1970, 1, 1)} counted from 0000-01-01 (as in {@code LocalDate.toEpochDay}). */
    private static final long DAYS_0000_TO_1970 = (146_097L * 5L) - (30L * 365L + 7L);
    private static final int[] POW10 = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000};

    private Rfc3339() {
    }

    /**
     * @param text the date-time text; {@code T}/{@code t}/space between date and time, {@code Z}/{@code z}
     *             or {@code ±hh:mm} offset, 0 or 1–9 fraction digits
     * @return the instant, or {@code null} when {@code text} is not such a date-time or names a
     *         date, time or offset that does not exist
     */
    static Instant parse(String text) {
        int n = text.length();
        if (n < 20) {
            return null;
        }
        int year = digits4(text, 0);
        int month = digits2(text, 5);
        int day = digits2(text, 8);
        int hour = digits2(text, 11);
        int minute = digits2(text, 14);
        int second = digits2(text, 17);
        char t = text.charAt(10);
        if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0
                || text.charAt(4) != '-' || text.charAt(7) != '-' || (t != 'T' && t != 't' && t != ' ')
                || text.charAt(13) != ':' || text.charAt(16) != ':') {
            return null;
        }
        int i = 19;
        int nanos = 0;
        if (text.charAt(i) == '.') {
            int start = ++i;
            int fraction = 0;
            while (i < n && i - start < 10) {
                int d = text.charAt(i) - '0';
                if (d < 0 || d > 9) {
                    break;
                }
                fraction = i - start < 9 ? fraction * 10 + d : fraction;
                i++;
            }
            int count = i - start;
            if (count == 0 || count > 9) {
                return null;
            }
            nanos = fraction * POW10[9 - count];
        }
        if (i >= n) {
            return null;
        }
        int offsetSeconds;
        char sign = text.charAt(i);
        if (sign == 'Z' || sign == 'z') {
            if (i + 1 != n) {
                return null;
            }
            offsetSeconds = 0;
        } else if (sign == '+' || sign == '-') {
            if (i + 6 != n || text.charAt(i + 3) != ':') {
                return null;
            }
            int offsetHours = digits2(text, i + 1);
            int offsetMinutes = digits2(text, i + 4);
            if (offsetHours < 0 || offsetMinutes < 0 || offsetHours > 23 || offsetMinutes > 59) {
                return null;
            }
            offsetSeconds = offsetHours * 3600 + offsetMinutes * 60;
            if (sign == '-') {
                offsetSeconds = -offsetSeconds;
            }
        } else {
            return null;
        }
        if (month < 1 || month > 12 || day < 1 || day > lengthOfMonth(year, month)
                || hour > 23 || minute > 59 || second > 60) {
            return null;
        }
        if (second == 60) {
            // a leap second is inserted only at 23:59:60 UTC
            int utcMinute = Math.floorMod(hour * 60 + minute - offsetSeconds / 60, 24 * 60);
            if (utcMinute != 23 * 60 + 59) {
                return null;
            }
            second = 59;
        }
        long epochSecond = epochDay(year, month, day) * SECONDS_PER_DAY + hour * 3600 + minute * 60 + second - offsetSeconds;
        return Instant.ofEpochSecond(epochSecond, nanos);
    }

    /** Two ASCII digits at {@code at} as a number, or -1. */
    private static int digits2(String s, int at) {
        int a = s.charAt(at) - '0';
        int b = s.charAt(at + 1) - '0';
        if (a < 0 || a > 9 || b < 0 || b > 9) {
            return -1;
        }
        return a * 10 + b;
    }

    /** Four ASCII digits at {@code at} as a number, or -1. */
    private static int digits4(String s, int at) {
        int hi = digits2(s, at);
        int lo = digits2(s, at + 2);
        return hi < 0 || lo < 0 ? -1 : hi * 100 + lo;
    }

    private static boolean isLeapYear(long year) {
        return (year & 3) == 0 && (year % 100 != 0 || year % 400 == 0);
    }

    private static int lengthOfMonth(int year, int month) {
        return switch (month) {
            case 2 -> isLeapYear(year) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** Days since 1970-01-01 of a date with year ≥ 0, as {@code LocalDate.toEpochDay} counts them. */
    private static long epochDay(int year, int month, int day) {
        long y = year;
        long m = month;
        long total = 365 * y + (y + 3) / 4 - (y + 99) / 100 + (y + 399) / 400;
        total += (367 * m - 362) / 12;
        total += day - 1;
        if (m > 2) {
            total--;
            if (!isLeapYear(year)) {
                total--;
            }
        }
        return total - DAYS_0000_TO_1970;
    }
}
