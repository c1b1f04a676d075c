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
    public void everyCodeOfTheTaxonomyHasTheClassOfDesignSection51() {
        Map<String, String> expected = Map.ofEntries(
                Map.entry("network_unavailable", "transient"),
                Map.entry("provider_overloaded", "transient"),
                Map.entry("provider_unavailable", "transient"),
                Map.entry("model_capacity", "transient"),
                Map.entry("agent_transport_lost", "transient"),
                Map.entry("rate_limited", "transient"),
                Map.entry("quota_limited", "hard"),
                Map.entry("auth_required", "hard"),
                Map.entry("missing_credentials", "hard"),
                Map.entry("subscription_required", "hard"),
                Map.entry("model_unavailable", "hard"),
                Map.entry("provider_not_configured", "hard"),
                Map.entry("permission_denied_by_user", "outside"),
                Map.entry("task_error", "outside"),
                Map.entry("repo_error", "outside"),
                Map.entry("context_window_exceeded", "outside"),
                Map.entry("resume_corrupted", "outside"),
                Map.entry("invalid_request", "outside"),
                Map.entry("unknown_provider_error", "unclassified"),
                Map.entry("agent_runtime_error", "unclassified"));
        Map<String, String> actual = Arrays.stream(Code.values())
                .collect(Collectors.toMap(Code::wire, c -> c.errorClass().wire()));
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    public void everyCodeHasTheClassAndHandlingOfDesignSection51sTable() throws IOException {
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
        assertThat(table).as("DESIGN §5.1 table").hasSize(Code.values().length);
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
