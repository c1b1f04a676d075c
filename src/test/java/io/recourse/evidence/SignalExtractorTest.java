package io.recourse.evidence;

import static io.recourse.evidence.Frames.frame;
import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameSource;
import io.recourse.ingress.Phase;
import java.util.Map;
import org.junit.jupiter.api.Test;

public class SignalExtractorTest {

    private final SignalExtractor extractor = new SignalExtractor();

    private Signal signal(Frame f) {
        return extractor.extract(f).orElseThrow(() -> new AssertionError("no signal for " + f.source()));
    }

    @Test
    public void anAcpErrorBecomesAnErrorSignalWithDecimalCodeMessageAndCompactData() {
        Signal s = signal(frame(3, FrameSource.ACP_ERROR,
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":-32603,\"message\":\"Internal error\",\"data\":{\"message\":\"at capacity\", \"info\": 1}}}").build());

        assertThat(s.kind()).isEqualTo(SignalKind.ERROR);
        assertThat(s.fields()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "code", "-32603", "message", "Internal error", "data", "{\"message\":\"at capacity\",\"info\":1}"));
        assertThat(s.seq()).isEqualTo(3);
        assertThat(s.source()).isEqualTo(FrameSource.ACP_ERROR);
    }

    @Test
    public void errorDataThatIsAJsonStringIsKeptAsTheStringItself() {
        Signal s = signal(frame(3, FrameSource.ACP_ERROR, "{\"id\":5,\"error\":{\"code\":1,\"message\":\"m\",\"data\":\"plain text\"}}").build());

        assertThat(s.field("data")).isEqualTo("plain text");
    }

    @Test
    public void anErrorResponseBecomesAnErrorSignal() {
        Signal s = signal(frame(3, FrameSource.ACP_RESPONSE, "{\"id\":5,\"error\":{\"code\":-32000,\"message\":\"Authentication required\"}}").build());

        assertThat(s.kind()).isEqualTo(SignalKind.ERROR);
        assertThat(s.fields()).containsOnlyKeys("code", "message");
    }

    @Test
    public void aPromptResultBecomesAStopSignal() {
        Signal s = signal(frame(4, FrameSource.ACP_RESPONSE,
                "{\"id\":5,\"result\":{\"stopReason\":\"end_turn\",\"usage\":{\"totalTokens\":3},\"_meta\":{\"quota\":{}}}}").build());

        assertThat(s.kind()).isEqualTo(SignalKind.STOP);
        assertThat(s.fields()).containsExactlyEntriesOf(Map.of("stop_reason", "end_turn"));
    }

    @Test
    public void aPromptResultReportingASessionFailureCarriesTheFailureMetadata() {
        Signal s = signal(frame(4, FrameSource.ACP_RESPONSE,
                "{\"id\":5,\"result\":{\"stopReason\":\"end_turn\",\"_meta\":{\"quota\":{\"n\":1},\"jetbrains\":{\"air\":{\"sessionFailure\":{\"title\":\"Selected model is at capacity.\"}}}}}}").build());

        assertThat(s.field("stop_reason")).isEqualTo("end_turn");
        assertThat(s.field("meta")).isEqualTo("{\"quota\":{\"n\":1},\"jetbrains\":{\"air\":{\"sessionFailure\":{\"title\":\"Selected model is at capacity.\"}}}}");
    }

    @Test
    public void aResultWithoutStopReasonIsNoSignal() {
        assertThat(extractor.extract(frame(4, FrameSource.ACP_RESPONSE, "{\"id\":1,\"result\":{\"protocolVersion\":1}}").build())).isEmpty();
    }

    @Test
    public void aCodexSystemErrorMarkerBecomesAnUpdateMetaSignal() {
        Signal s = signal(Frames.codexMarker(2));

        assertThat(s.kind()).isEqualTo(SignalKind.UPDATE_META);
        assertThat(s.field("update")).isEqualTo("session_info_update");
        assertThat(s.field("meta")).isEqualTo("{\"codex\":{\"threadStatus\":{\"type\":\"systemError\"}}}");
        assertThat(s.field("text")).isNull();
    }

    @Test
    public void aCodexReconnectErrorUpdateBecomesAnUpdateMetaSignal() {
        Signal s = signal(Frames.update(2, "{\"sessionUpdate\":\"session_info_update\",\"_meta\":{\"codex\":{\"error\":{\"message\":\"Reconnecting... 1/5\"}}}}"));

        assertThat(s.kind()).isEqualTo(SignalKind.UPDATE_META);
        assertThat(s.field("meta")).contains("Reconnecting... 1/5");
    }

    @Test
    public void aCompletedThreadStatusIsNoSignal() {
        assertThat(extractor.extract(Frames.update(2,
                "{\"sessionUpdate\":\"session_info_update\",\"_meta\":{\"threadStatus\":{\"type\":\"completed\"}}}"))).isEmpty();
    }

    @Test
    public void ordinaryChunksAndToolCallsAreNoSignals() {
        assertThat(extractor.extract(Frames.chunk(2, "API Error: 529 overloaded"))).isEmpty();
        assertThat(extractor.extract(Frames.thought(3, "thinking"))).isEmpty();
        assertThat(extractor.extract(Frames.toolCall(4))).isEmpty();
        assertThat(extractor.extract(Frames.update(5,
                "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"t\",\"status\":\"failed\",\"rawOutput\":\"API Error: 500\"}"))).isEmpty();
    }

    @Test
    public void aStderrLineBecomesAStderrSignal() {
        Signal s = signal(Frames.stderr(2, "ERROR codex: boom"));

        assertThat(s.kind()).isEqualTo(SignalKind.STDERR);
        assertThat(s.fields()).containsExactlyEntriesOf(Map.of("line", "ERROR codex: boom"));
    }

    @Test
    public void anExitBecomesAnExitSignalWithoutNullFields() {
        Signal killed = signal(frame(2, FrameSource.EXIT, "{\"code\":null,\"signal\":\"SIGKILL\"}").build());
        Signal exited = signal(frame(3, FrameSource.EXIT, "{\"code\":127,\"signal\":null}").build());

        assertThat(killed.fields()).containsExactlyEntriesOf(Map.of("signal", "SIGKILL"));
        assertThat(exited.fields()).containsExactlyEntriesOf(Map.of("code", "127"));
    }

    @Test
    public void httpMetadataBecomesAnHttpSignalWithLowerCaseHeaderFields() {
        Signal s = signal(frame(2, FrameSource.HTTP,
                "{\"status\":429,\"headers\":{\"Retry-After\":\"37\",\"x-request-id\":\"r1\"},\"body\":{\"error\":{\"type\":\"rate_limit_error\"}}}").build());

        assertThat(s.kind()).isEqualTo(SignalKind.HTTP);
        assertThat(s.fields()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "status", "429", "header.retry-after", "37", "header.x-request-id", "r1",
                "body", "{\"error\":{\"type\":\"rate_limit_error\"}}"));
    }

    @Test
    public void httpHeaderNamesThatHoldSecretsOrOddCharactersAreDroppedWithTheirValues() {
        Signal s = signal(frame(2, FrameSource.HTTP,
                "{\"status\":429,\"headers\":{\"Retry-After\":\"37\",\"sk-proj-AbCdEf0123456789GhIjKlMn\":\"1\","
                        + "\"x-alice@example.com\":\"2\",\"x y\":\"3\"}}").build());

        assertThat(s.fields()).containsOnlyKeys("status", "header.retry-after");
    }

    @Test
    public void atMostThirtyTwoHttpHeadersAreKept() {
        StringBuilder headers = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            headers.append(i == 0 ? "" : ",").append("\"x-h").append(i).append("\":\"v\"");
        }
        Signal s = signal(frame(2, FrameSource.HTTP, "{\"status\":503,\"headers\":{" + headers + "}}").build());

        assertThat(s.fields().keySet().stream().filter(k -> k.startsWith("header."))).hasSize(SignalExtractor.MAX_HEADERS);
    }

    @Test
    public void aTextHttpBodyIsKeptAsText() {
        assertThat(signal(frame(2, FrameSource.HTTP, "{\"status\":503,\"headers\":{},\"body\":\"upstream down\"}").build()).field("body"))
                .isEqualTo("upstream down");
    }

    @Test
    public void aLaunchFailureBecomesALifecycleSignalWithEventMessageAndPhase() {
        Signal s = signal(frame(2, FrameSource.LIFECYCLE, "{\"event\":\"launch_failed\",\"phase\":\"auth_check\",\"message\":\"not logged in\"}")
                .phase(Phase.AUTH_CHECK).build());

        assertThat(s.kind()).isEqualTo(SignalKind.LIFECYCLE);
        assertThat(s.fields()).containsExactlyInAnyOrderEntriesOf(Map.of("event", "launch_failed", "phase", "auth_check", "message", "not logged in"));
    }

    @Test
    public void anAbandonedTurnBecomesALifecycleSignalWithItsEventOnly() {
        Signal s = signal(frame(5, FrameSource.LIFECYCLE, "{\"event\":\"turn_abandoned\",\"reason\":\"prompt_timeout\"}").build());

        assertThat(s.fields()).containsExactlyEntriesOf(Map.of("event", "turn_abandoned"));
    }

    @Test
    public void otherLifecycleEventsAndRequestsAreNoSignals() {
        assertThat(extractor.extract(Frames.lifecycle(1, "prompt_dispatched"))).isEmpty();
        assertThat(extractor.extract(Frames.lifecycle(2, "process_started"))).isEmpty();
        assertThat(extractor.extract(Frames.prompt(3))).isEmpty();
    }

    @Test
    public void everyValueIsBoundedTo4KiB() {
        Signal s = signal(Frames.stderr(2, Frames.prose(10_000)));

        assertThat(s.size()).isLessThanOrEqualTo(4096);
        assertThat(s.field("line")).startsWith("the quick brown fox");
    }

    @Test
    public void aSignalWithManyLargeFieldsIsBoundedAsAWhole() {
        StringBuilder headers = new StringBuilder("{");
        for (int i = 0; i < 10; i++) {
            headers.append(i == 0 ? "" : ",").append("\"h").append(i).append("\":\"").append(Frames.prose(1000)).append("\"");
        }
        headers.append("}");
        Signal s = signal(frame(2, FrameSource.HTTP, "{\"status\":500,\"headers\":" + headers + ",\"body\":\"b\"}").build());

        assertThat(s.size()).isLessThanOrEqualTo(4096);
        assertThat(s.field("status")).isEqualTo("500");
    }

    @Test
    public void cuttingNeverSplitsAMultiByteCharacter() {
        Signal s = new SignalExtractor(64).extract(Frames.stderr(2, "é".repeat(100))).orElseThrow();

        assertThat(s.field("line")).matches("é+");
        assertThat(s.size()).isLessThanOrEqualTo(64);
    }
}
