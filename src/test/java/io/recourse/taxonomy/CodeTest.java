package io.recourse.taxonomy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

public class CodeTest {

    @Test
    public void everyCodeOfTheTaxonomyHasTheClassAndHandlingOfDesignSection51() throws IOException {
        Map<String, List<String>> table = new LinkedHashMap<>();
        boolean inTable = false;
        for (String line : Files.readAllLines(Path.of("docs/DESIGN.md"))) {
            if (line.startsWith("| code | class | handling |")) {
                inTable = true;
                continue;
            }
            if (inTable && !line.startsWith("|")) {
                break;
            }
            if (inTable && !line.startsWith("| ---")) {
                String[] cells = line.split("\\|");
                Matcher codes = Pattern.compile("`([a-z_]+)`").matcher(cells[1]);
                while (codes.find()) {
                    table.put(codes.group(1), List.of(cells[2].strip(), cells[3].strip().replace("`", "")));
                }
            }
        }
        Map<String, List<String>> actual = new LinkedHashMap<>();
        for (Code c : Code.values()) {
            actual.put(c.wire(), List.of(c.errorClass().wire(), c.handling().wire()));
        }
        assertThat(table).as("DESIGN §5.1 table").hasSizeGreaterThanOrEqualTo(20).containsEntry("quota_limited",
                List.of("hard", "renewable_quota"));
        assertThat(actual).isEqualTo(table);
    }

    @Test
    public void everyHandlingHasOneClassAndTheHandlingsCoverEveryClass() {
        Map<Handling, String> expected = Map.of(
                Handling.PROVIDER_TRANSIENT, "transient",
                Handling.THROTTLE, "transient",
                Handling.TRANSPORT_LOST, "transient",
                Handling.RENEWABLE_QUOTA, "hard",
                Handling.USER_ACTION, "hard",
                Handling.NOT_PROVIDER_FAILURE, "outside",
                Handling.UNCLASSIFIED_PRE_START, "unclassified",
                Handling.UNCLASSIFIED_POST_START, "unclassified");
        assertThat(Arrays.stream(Handling.values()).collect(Collectors.toMap(h -> h, h -> h.errorClass().wire())))
                .isEqualTo(expected);
        for (Code c : Code.values()) {
            assertThat(c.errorClass()).as(c.wire()).isSameAs(c.handling().errorClass());
        }
    }

    @Test
    public void wireNamesRoundTripAndUnknownNamesAreRejected() {
        for (Code c : Code.values()) {
            assertThat(Code.fromWire(c.wire())).isSameAs(c);
        }
        assertThatThrownBy(() -> Code.fromWire("billing_required"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("billing_required");
    }

    @Test
    public void confidenceAtMostKeepsTheWeaker() {
        assertThat(Confidence.HIGH.atMost(Confidence.MEDIUM)).isEqualTo(Confidence.MEDIUM);
        assertThat(Confidence.LOW.atMost(Confidence.MEDIUM)).isEqualTo(Confidence.LOW);
    }
}
