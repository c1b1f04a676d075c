package io.recourse.evidence;

import static io.recourse.evidence.Frames.chunk;
import static io.recourse.evidence.Frames.codexMarker;
import static io.recourse.evidence.Frames.endTurn;
import static io.recourse.evidence.Frames.error;
import static io.recourse.evidence.Frames.frame;
import static io.recourse.evidence.Frames.lifecycle;
import static io.recourse.evidence.Frames.prompt;
import static io.recourse.evidence.Frames.stderr;
import static io.recourse.evidence.Frames.thought;
import static io.recourse.evidence.Frames.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.recourse.classification.OfflineAssembler;
import io.recourse.classification.StubClassifier;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameSource;
import io.recourse.ingress.Phase;
import io.recourse.ingress.PromptOrigin;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

public class EvidenceAssemblerTest {

    private final OfflineAssembler driver = new OfflineAssembler(new StubClassifier());

    private List<SessionEvent> feed(Frame... frames) {
        List<SessionEvent> out = new ArrayList<>();
        for (Frame f : frames) {
            out.addAll(driver.accept(f, f.occurredAt()));
        }
        return out;
    }

    private ClosedTurn closed() {
        return driver.closedTurns().get("s1/1");
    }

    private TurnOutcome outcome() {
        assertThat(driver.outcomes()).hasSize(1);
        return driver.outcomes().get(0);
    }

    private static List<Long> seqs(Evidence e) {
        return e.signals().stream().map(Signal::seq).toList();
    }

    @Nested
    public class Ordering {

        @Test
        void signalsAreInSeqOrderWhateverTheArrivalOrder() {
            feed(prompt(1), stderr(4, "third"), stderr(2, "first"), stderr(3, "second"), error(5, "boom"));

            assertThat(seqs(closed().evidence())).containsExactly(2L, 3L, 4L, 5L);
        }

        @Test
        void aDuplicateSeqIsIgnoredAndTheFirstFrameWins() {
            EvidenceAssembler assembler = new EvidenceAssembler();
            FrameStep first = assembler.accept(null, stderr(2, "original"), Frames.T0);

            FrameStep again = assembler.accept(first.state(), stderr(2, "replayed"), Frames.T0.plusSeconds(1));

            assertThat(again.duplicate()).isTrue();
            assertThat(again.signal()).isEmpty();
            assertThat(again.state()).isEqualTo(first.state());
        }

        @Test
        void duplicatesInTheFetchedSignalsDoNotDuplicateEvidence() {
            EvidenceAssembler assembler = new EvidenceAssembler();
            List<Signal> stored = new ArrayList<>();
            TurnState state = null;
            for (Frame f : List.of(prompt(1), stderr(2, "a"), stderr(3, "b"), error(4, "c"))) {
                FrameStep step = assembler.accept(state, f, f.occurredAt());
                state = step.state();
                step.signal().ifPresent(stored::add);
            }
            List<Signal> fetched = new ArrayList<>(stored);
            fetched.addAll(stored);
            Collections.reverse(fetched);

            Evidence e = assembler.assemble(state, fetched).evidence();

            assertThat(seqs(e)).containsExactly(2L, 3L, 4L);
            assertThat(e).isEqualTo(assembler.assemble(state, stored).evidence());
        }

        @Test
        void signalKeysAreTheTurnAndTheSeqPaddedTo20Digits() {
            assertThat(EvidenceAssembler.signalKey("team/s1/3", 42)).isEqualTo("team/s1/3#00000000000000000042");
            assertThat(EvidenceAssembler.signalRangeFrom("team/s1/3")).isEqualTo("team/s1/3#");
            assertThat(EvidenceAssembler.signalRangeTo("team/s1/3")).isEqualTo("team/s1/3#~");
        }
    }

    @Nested
    public class Bounds {

        @Test
        void atMost32SignalsAreKeptAndTheOldestErrorPositionSignalsGoFirst() {
            List<Frame> frames = new ArrayList<>(List.of(prompt(1)));
            for (int i = 2; i <= 41; i++) {
                frames.add(stderr(i, "line " + i));
            }
            frames.add(error(42, "fatal"));
            feed(frames.toArray(Frame[]::new));

            Evidence e = closed().evidence();
            assertThat(e.signals()).hasSize(32);
            assertThat(seqs(e)).startsWith(11L).endsWith(42L);
            assertThat(e.droppedSignals()).isEqualTo(9);
        }

        @Test
        void theTerminalFrameAndTheLatestFinalChunkAreNeverDropped() {
            List<Frame> frames = new ArrayList<>(List.of(prompt(1)));
            for (int i = 2; i <= 60; i++) {
                frames.add(stderr(i, Frames.prose(1000)));
            }
            frames.add(chunk(61, "Selected model is at capacity."));
            frames.add(endTurn(62));
            feed(frames.toArray(Frame[]::new));

            Evidence e = closed().evidence();
            assertThat(e.signals()).extracting(Signal::kind).contains(SignalKind.FINAL_CHUNK, SignalKind.STOP);
            assertThat(e.signals().stream().mapToInt(Signal::size).sum()).isLessThanOrEqualTo(16 * 1024);
            assertThat(e.droppedSignals()).isEqualTo(59 + 2 - e.signals().size());
        }

        @Test
        void theTurnByteBoundKeepsTheNewestSignals() {
            feed(prompt(1), stderr(2, Frames.prose(4000)), stderr(3, Frames.prose(4000)), stderr(4, Frames.prose(4000)),
                    stderr(5, Frames.prose(4000)), stderr(6, Frames.prose(4000)), error(7, "fatal"));

            Evidence e = closed().evidence();
            assertThat(e.signals().stream().mapToInt(Signal::size).sum()).isLessThanOrEqualTo(16 * 1024);
            assertThat(seqs(e)).containsExactly(3L, 4L, 5L, 6L, 7L);
            assertThat(e.droppedSignals()).isPositive();
        }

        @Test
        void configuredBoundsApply() {
            OfflineAssembler small = new OfflineAssembler(new StubClassifier(), new EvidenceBounds(4, 100, 400, 4));
            for (Frame f : List.of(prompt(1), stderr(2, "a"), stderr(3, "b"), stderr(4, "c"), stderr(5, "d"), error(6, Frames.prose(500)))) {
                small.accept(f, f.occurredAt());
            }

            Evidence e = small.closedTurns().get("s1/1").evidence();
            assertThat(e.signals()).hasSize(4);
            assertThat(e.signals()).allMatch(s -> s.size() <= 100);
            assertThat(seqs(e)).containsExactly(3L, 4L, 5L, 6L);
        }

        @Test
        void evictedSignalsAreReportedSoTheStoreMayDeleteThem() {
            EvidenceAssembler assembler = new EvidenceAssembler(new EvidenceBounds(2, 100, 200, 4));
            TurnState state = assembler.accept(null, stderr(2, "a"), Frames.T0).state();
            state = assembler.accept(state, stderr(3, "b"), Frames.T0).state();

            FrameStep step = assembler.accept(state, stderr(4, "c"), Frames.T0);

            assertThat(step.evictedSeqs()).containsExactly(2L);
            assertThat(step.signal()).isPresent();
            assertThat(step.state().kept()).extracting(TurnState.SignalRef::seq).containsExactly(3L, 4L);
            assertThat(step.state().droppedSignals()).isEqualTo(1);
        }
    }

    @Nested
    public class Sanitizing {

        @Test
        void keptValuesPassThroughTheSanitizerAndAreBounded() {
            feed(prompt(1), stderr(2, Frames.prose(20_000)), error(3, "fatal"));

            Signal line = closed().evidence().signals().get(0);
            assertThat(Sanitizer.sanitize(Frames.prose(20_000))).startsWith(line.field("line"));
            assertThat(line.field("line")).hasSizeGreaterThan(4000);
            assertThat(line.size()).isLessThanOrEqualTo(4096);
        }

        @Test
        void everyKeptValueIsTheSanitizersOutput() {
            String secretLine = "auth failed for bob@example.com with key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 at https://api.example.com/v1/x?token=abc";
            feed(prompt(1), stderr(2, secretLine), chunk(3, "Error: " + secretLine), error(4, secretLine));

            Evidence e = closed().evidence();
            assertThat(e.signals().get(0).field("line")).isEqualTo(Sanitizer.sanitize(secretLine));
            assertThat(closed().finalChunk().field("text")).isEqualTo(Sanitizer.sanitize("Error: " + secretLine));
            assertThat(e.signals().get(2).field("message")).isEqualTo(Sanitizer.sanitize(secretLine));
        }

        @Test
        void theFinalChunkExcerptIsBoundedTo4KiB() {
            feed(prompt(1), chunk(2, Frames.prose(3000)), chunk(3, "LAST " + Frames.prose(3000)), error(4, "fatal"));

            Signal finalChunk = closed().finalChunk();
            assertThat(finalChunk.size()).isLessThanOrEqualTo(4096);
            assertThat(finalChunk.field("text")).startsWith("LAST ");
            assertThat(closed().finalChunkComplete()).isFalse();
        }

        @Test
        void ordinaryAssistantTextAndToolOutputAreNeverKept() {
            feed(prompt(1), chunk(2, "ordinary answer"), toolCall(3),
                    Frames.update(4, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"t1\",\"rawOutput\":\"tool secret output\"}"),
                    chunk(5, "final words"), endTurn(6));

            Evidence e = closed().evidence();
            assertThat(e.signals()).noneMatch(s -> s.fields().values().stream()
                    .anyMatch(v -> v.contains("ordinary answer") || v.contains("tool secret output")));
            assertThat(closed().finalChunk().field("text")).isEqualTo("final words");
            assertThat(driver.turns().get("s1/1").toString()).doesNotContain("ordinary answer", "tool secret output");
        }
    }

    @Nested
    public class EffectFlags {

        @Test
        void aThoughtChunkBeforeTheTerminalFrameIsAssistantOutput() {
            feed(prompt(1), thought(2, "**Planning**"), error(3, "fatal"));

            assertThat(outcome().assistantOutputSeen()).isTrue();
            assertThat(outcome().replaySafe()).isFalse();
        }

        @Test
        void aToolCallBeforeTheTerminalFrameIsToolActivity() {
            feed(prompt(1), toolCall(2), error(3, "fatal"));

            assertThat(outcome().toolActivitySeen()).isTrue();
            assertThat(outcome().assistantOutputSeen()).isFalse();
            assertThat(outcome().replaySafe()).isFalse();
        }

        @Test
        void blankChunksAreNotOutput() {
            feed(prompt(1), chunk(2, "  \n"), thought(3, ""), error(4, "fatal"));

            assertThat(outcome().assistantOutputSeen()).isFalse();
            assertThat(outcome().replaySafe()).isTrue();
        }

        @Test
        void activityWithASeqAfterTheTerminalFrameDoesNotCountEvenWhenItArrivesFirst() {
            feed(prompt(1), toolCall(5), chunk(6, "after the end"), error(4, "fatal"));

            assertThat(outcome().toolActivitySeen()).isFalse();
            assertThat(outcome().assistantOutputSeen()).isFalse();
            assertThat(outcome().replaySafe()).isTrue();
        }

        @Test
        void generationZeroActivityDoesNotCount() {
            feed(Frames.in(chunk(1, "replayed answer"), "s1", 0), Frames.in(toolCall(2), "s1", 0), prompt(3), error(4, "fatal"));

            assertThat(outcome().assistantOutputSeen()).isFalse();
            assertThat(outcome().toolActivitySeen()).isFalse();
        }

        @Test
        void theChunkThatIsTheSurfacedFailureTextDoesNotCount() {
            feed(prompt(1), codexMarker(2), chunk(3, "Selected model is at capacity. Please try a different model."), endTurn(4));

            TurnOutcome o = outcome();
            assertThat(o.outcome()).isEqualTo(Outcome.FAILED);
            assertThat(o.assistantOutputSeen()).isFalse();
            assertThat(o.replaySafe()).isTrue();
        }

        @Test
        void aFailureTextStreamedAsSeveralChunksIsOneFinalChunkAndDoesNotCount() {
            feed(prompt(1), chunk(2, "API Error: 529 "), chunk(3, "{\"type\":\"overloaded_error\"}"), endTurn(4));

            assertThat(closed().finalChunk().field("text")).isEqualTo("API Error: 529 {\"type\":\"overloaded_error\"}");
            assertThat(outcome().assistantOutputSeen()).isFalse();
        }

        @Test
        void aChunkEchoingTheErrorObjectDoesNotCount() {
            feed(prompt(1), chunk(2, "Quota exhausted for this billing window\n\n"),
                    error(3, "Internal error: Quota exhausted for this billing window"));

            assertThat(outcome().assistantOutputSeen()).isFalse();
            assertThat(outcome().replaySafe()).isTrue();
        }

        @Test
        void aPartialAnswerBeforeAProviderErrorCounts() {
            feed(prompt(1), chunk(2, "partially generated answer"), error(3, "Internal error: provider disconnected"));

            assertThat(outcome().assistantOutputSeen()).isTrue();
            assertThat(outcome().replaySafe()).isFalse();
        }

        @Test
        void outputBeforeTheFailureTextStillCounts() {
            feed(prompt(1), chunk(2, "Here is the plan."), toolCall(3), chunk(4, "API Error: 529 overloaded"), endTurn(5));

            assertThat(outcome().outcome()).isEqualTo(Outcome.FAILED);
            assertThat(outcome().assistantOutputSeen()).isTrue();
        }

        @Test
        void aCompletedTurnReportsItsFinalAnswerAsOutput() {
            feed(prompt(1), chunk(2, "All done."), endTurn(3));

            assertThat(outcome().outcome()).isEqualTo(Outcome.COMPLETED);
            assertThat(outcome().assistantOutputSeen()).isTrue();
        }

        @Test
        void aResumeGuaranteeMakesATurnWithEffectsReplaySafe() {
            feed(frame(1, FrameSource.ACP_REQUEST, "{\"id\":7,\"method\":\"session/prompt\",\"params\":{\"prompt\":[]}}")
                    .resumeGuarantee().build(), toolCall(2), error(3, "fatal"));

            assertThat(outcome().toolActivitySeen()).isTrue();
            assertThat(outcome().replaySafe()).isTrue();
        }
    }

    @Nested
    public class Closing {

        @Test
        void aPromptResultClosesTheTurnWithItsStopReason() {
            feed(prompt(1), Frames.result(2, "max_tokens"));

            assertThat(outcome().outcome()).isEqualTo(Outcome.COMPLETED);
            assertThat(outcome().stopReason()).isEqualTo("max_tokens");
            assertThat(outcome().classification()).isNull();
        }

        @Test
        void aPromptResultsSessionFailureIsPresentedAsUpdateMetadataAfterTheStop() {
            feed(prompt(1), frame(2, FrameSource.ACP_RESPONSE,
                    "{\"id\":7,\"result\":{\"stopReason\":\"end_turn\",\"_meta\":{\"air\":{\"sessionFailure\":{\"title\":\"Selected model is at capacity.\"}}}}}").build());

            Evidence e = closed().evidence();
            assertThat(e.signals()).extracting(Signal::kind).containsExactly(SignalKind.STOP, SignalKind.UPDATE_META);
            assertThat(e.signals()).extracting(Signal::seq).containsExactly(2L, 2L);
            assertThat(e.signals().get(0).fields()).containsOnlyKeys("stop_reason");
            assertThat(e.signals().get(1).field("update")).isEqualTo("prompt_result");
            assertThat(e.signals().get(1).field("meta")).contains("Selected model is at capacity.");
            assertThat(e.droppedSignals()).isZero();
            assertThat(outcome().outcome()).isEqualTo(Outcome.FAILED);
        }

        @Test
        void aCancelledStopReasonIsACancelledOutcomeWithoutClassification() {
            feed(prompt(1), toolCall(2), Frames.result(3, "cancelled"));

            assertThat(outcome().outcome()).isEqualTo(Outcome.CANCELLED);
            assertThat(outcome().classification()).isNull();
        }

        @Test
        void anExitClosesTheTurn() {
            feed(prompt(1), frame(2, FrameSource.EXIT, "{\"code\":null,\"signal\":\"SIGKILL\"}").phase(Phase.TOOL_EXECUTION).build());

            assertThat(outcome().outcome()).isEqualTo(Outcome.FAILED);
            assertThat(outcome().launch()).isFalse();
        }

        @Test
        void anAbandonedTurnIsClosedAsFailed() {
            feed(prompt(1), lifecycle(2, "turn_abandoned"));

            assertThat(outcome().outcome()).isEqualTo(Outcome.FAILED);
        }

        @Test
        void anErrorAnsweringAnotherRequestDoesNotCloseTheTurn() {
            List<SessionEvent> events = feed(prompt(1),
                    frame(2, FrameSource.ACP_ERROR, "{\"id\":99,\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}").build());

            assertThat(events).noneMatch(e -> e instanceof TurnOutcome);
            feed(endTurn(3));
            assertThat(closed().evidence().signals()).extracting(Signal::kind).containsExactly(SignalKind.ERROR, SignalKind.STOP);
        }

        @Test
        void aFailedTurnWithoutAnyRuleGetsTheFallbackWhenTheClassifierStaysSilent() {
            OfflineAssembler silent = new OfflineAssembler(e -> java.util.Optional.empty());
            for (Frame f : List.of(prompt(1), error(2, "strange"))) {
                silent.accept(f, f.occurredAt());
            }

            TurnOutcome o = silent.outcomes().get(0);
            assertThat(o.outcome()).isEqualTo(Outcome.FAILED);
            assertThat(o.classification().code().wire()).isEqualTo("agent_runtime_error");
        }

        @Test
        void theOutcomeCarriesTheTerminalFramesTimes() {
            Frame terminal = error(5, "boom");
            driver.accept(prompt(1), Frames.T0);
            driver.accept(terminal, Frames.T0.plusSeconds(60));

            assertThat(outcome().occurredAt()).isEqualTo(terminal.occurredAt());
            assertThat(outcome().recordedAt()).isEqualTo(Frames.T0.plusSeconds(60));
        }
    }

    @Nested
    public class LaunchFailures {

        private Frame dispatched(long seq) {
            return frame(seq, FrameSource.LIFECYCLE, "{\"event\":\"prompt_dispatched\"}").phase(Phase.PROCESS_START)
                    .origin(PromptOrigin.RETRY).command("cmd-1", 1).build();
        }

        @Test
        void anExitInAPreStartPhaseBeforeTheSessionPromptIsALaunchFailure() {
            List<SessionEvent> events = feed(dispatched(1),
                    frame(2, FrameSource.EXIT, "{\"code\":127,\"signal\":null}").phase(Phase.PROCESS_START).build());

            assertThat(events.get(0)).isInstanceOf(TurnStarted.class);
            TurnOutcome o = outcome();
            assertThat(o.launch()).isTrue();
            assertThat(o.outcome()).isEqualTo(Outcome.FAILED);
            assertThat(o.commandId()).isEqualTo("cmd-1");
            assertThat(o.context().promptOrigin()).isEqualTo(PromptOrigin.RETRY);
            assertThat(o.context().retryOfGeneration()).isEqualTo(1);
        }

        @Test
        void launchFailedClosesTheTurnAsALaunchFailure() {
            feed(dispatched(1), frame(2, FrameSource.LIFECYCLE, "{\"event\":\"launch_failed\",\"phase\":\"auth_check\",\"message\":\"no login\"}")
                    .phase(Phase.AUTH_CHECK).build());

            assertThat(outcome().launch()).isTrue();
            assertThat(closed().evidence().launch()).isTrue();
            assertThat(closed().evidence().signals()).extracting(Signal::kind).containsExactly(SignalKind.LIFECYCLE);
        }

        @Test
        void anErrorResponseDuringSessionInitBeforeThePromptIsALaunchFailure() {
            feed(dispatched(1), frame(2, FrameSource.ACP_RESPONSE, "{\"id\":1,\"error\":{\"code\":-32000,\"message\":\"Authentication required\"}}")
                    .phase(Phase.SESSION_INIT).build());

            assertThat(outcome().launch()).isTrue();
        }

        @Test
        void anExitAfterTheSessionPromptIsNotALaunchFailure() {
            feed(dispatched(1), prompt(2), frame(3, FrameSource.EXIT, "{\"code\":1,\"signal\":null}").phase(Phase.PROCESS_START).build());

            assertThat(outcome().launch()).isFalse();
        }

        @Test
        void theOriginComesFromTheFirstPromptFrameBySeq() {
            feed(prompt(2), dispatched(1), error(3, "x"));

            assertThat(outcome().commandId()).isEqualTo("cmd-1");
            assertThat(outcome().context().promptOrigin()).isEqualTo(PromptOrigin.RETRY);
        }
    }

    @Nested
    public class LateFrames {

        @Test
        void aFrameAfterCloseIsCountedAndNeverEmitsOrReopens() {
            feed(prompt(1), error(3, "boom"));

            List<SessionEvent> events = feed(stderr(2, "lower seq, late"), endTurn(4), toolCall(5));

            assertThat(events).isEmpty();
            assertThat(driver.outcomes()).hasSize(1);
            assertThat(driver.turns().get("s1/1").lateAfterClose()).isEqualTo(3);
            assertThat(driver.counter("late_after_close")).isEqualTo(3);
            assertThat(driver.closedTurns().get("s1/1").evidence().signals()).extracting(Signal::seq).containsExactly(3L);
        }

        @Test
        void aFrameAfterExpiryIsLate() {
            feed(prompt(1), chunk(2, "working"));
            List<TurnExpired> expired = driver.expireIdle(Frames.T0.plus(Duration.ofHours(3)), Duration.ofHours(2));

            List<SessionEvent> events = feed(endTurn(3));

            assertThat(expired).hasSize(1);
            assertThat(expired.get(0).lastAppendAt()).isEqualTo(Frames.T0.plusSeconds(2));
            assertThat(events).isEmpty();
            assertThat(driver.turns().get("s1/1").closed()).isEqualTo(TurnState.ClosedMarker.EXPIRED);
        }

        @Test
        void aTurnThatSawARecentFrameDoesNotExpire() {
            feed(prompt(1));

            assertThat(driver.expireIdle(Frames.T0.plus(Duration.ofMinutes(30)), Duration.ofHours(2))).isEmpty();
        }
    }

    @Nested
    public class GenerationZero {

        @Test
        void generationZeroFramesAreDroppedWithoutState() {
            EvidenceAssembler assembler = new EvidenceAssembler();

            FrameStep step = assembler.accept(null, Frames.in(error(1, "old replayed failure"), "s1", 0), Frames.T0);

            assertThat(step.state()).isNull();
            assertThat(step.signal()).isEmpty();
            assertThat(step.events()).isEmpty();
            assertThat(step.closesTurn()).isFalse();
        }

        @Test
        void sessionStoppedBecomesSessionStopped() {
            List<SessionEvent> events = feed(Frames.in(lifecycle(9, "session_stopped"), "s1", 0));

            assertThat(events).singleElement().isInstanceOfSatisfying(SessionStopped.class, e -> {
                assertThat(e.sessionId()).isEqualTo("s1");
                assertThat(e.promptGeneration()).isZero();
                assertThat(e.occurredAt()).isEqualTo(Frames.T0.plusSeconds(9));
            });
        }
    }

    @Nested
    public class SessionEvents {

        @Test
        void turnStartedCarriesTheDigestOfTheCanonicalPrompt() {
            Frame request = frame(1, FrameSource.ACP_REQUEST,
                    "{\"id\":7,\"method\":\"session/prompt\",\"params\":{\"sessionId\":\"x\",\"prompt\":[{\"text\":\"hi\",\"type\":\"text\"}]}}")
                    .origin(PromptOrigin.USER).turnConfig("{\"model\":\"gpt-5.5\",\"mode\":\"auto\"}").build();

            TurnStarted started = (TurnStarted) feed(request).get(0);

            assertThat(started.promptDigest()).isEqualTo(PromptDigest.digest(Frames.json("[{\"type\":\"text\",\"text\":\"hi\"}]")));
            assertThat(started.turnConfigDigest()).isEqualTo(PromptDigest.digest(Frames.json("{\"mode\":\"auto\",\"model\":\"gpt-5.5\"}")));
            assertThat(started.context().promptOrigin()).isEqualTo(PromptOrigin.USER);
        }

        @Test
        void turnStartedPrefersTheGatewaysPromptDigest() {
            String digest = "ab".repeat(32);
            Frame request = frame(1, FrameSource.ACP_REQUEST, "{\"id\":7,\"method\":\"session/prompt\",\"params\":{\"prompt\":[]}}")
                    .promptDigest(digest).build();

            assertThat(((TurnStarted) feed(request).get(0)).promptDigest()).isEqualTo(digest);
        }

        @Test
        void aGatewayPromptDigestThatIsNotAHexDigestIsNotKept() {
            Frame request = frame(1, FrameSource.ACP_REQUEST, "{\"id\":7,\"method\":\"session/prompt\",\"params\":{\"prompt\":[]}}")
                    .promptDigest("sk-proj-planted0secret0value0000").build();

            assertThat(((TurnStarted) feed(request).get(0)).promptDigest())
                    .isEqualTo(PromptDigest.digest(Frames.json("[]")));
        }

        @Test
        void anAgentTypeIsSanitizedBeforeItReachesTheTurnContext() {
            Frame request = frame(1, FrameSource.ACP_REQUEST, "{\"id\":7,\"method\":\"session/prompt\",\"params\":{\"prompt\":[]}}")
                    .agentType("sk-proj-planted0secret0value0000").build();

            assertThat(((TurnStarted) feed(request).get(0)).context().agentType())
                    .doesNotContain("planted0secret").isEqualTo(Sanitizer.REDACTED);
        }

        @Test
        void turnStartedIsEmittedOnce() {
            List<SessionEvent> events = feed(lifecycle(1, "prompt_dispatched"), prompt(2), endTurn(3));

            assertThat(events).filteredOn(e -> e instanceof TurnStarted).hasSize(1);
        }

        @Test
        void turnProgressedIsEmittedOnceOnTheFirstToolActivity() {
            List<SessionEvent> events = feed(prompt(1), toolCall(2), toolCall(3), thought(4, "x"), endTurn(5));

            assertThat(events).filteredOn(e -> e instanceof TurnProgressed).singleElement()
                    .isInstanceOfSatisfying(TurnProgressed.class, p -> {
                        assertThat(p.toolActivitySeen()).isTrue();
                        assertThat(p.occurredAt()).isEqualTo(Frames.T0.plusSeconds(2));
                    });
        }

        @Test
        void aSingleMessageChunkIsNotYetProgressButASecondOneIs() {
            List<SessionEvent> afterOne = feed(prompt(1), chunk(2, "Selected model is at capacity."));
            List<SessionEvent> afterTwo = feed(chunk(3, "more text"));

            assertThat(afterOne).noneMatch(e -> e instanceof TurnProgressed);
            assertThat(afterTwo).singleElement().isInstanceOf(TurnProgressed.class);
        }

        @Test
        void progressSeenBeforeTheTurnStartedIsEmittedRightAfterTurnStarted() {
            List<SessionEvent> events = feed(toolCall(2), prompt(1));

            assertThat(events).extracting(e -> e.getClass().getSimpleName()).containsExactly("TurnStarted", "TurnProgressed");
        }

        @Test
        void theOutcomeIsTheLastEventOfTheClosingFrame() {
            List<SessionEvent> events = feed(prompt(1), error(2, "x"));

            assertThat(events.get(events.size() - 1)).isInstanceOf(TurnOutcome.class);
        }
    }

    @Test
    public void theTurnStateSurvivesAJsonRoundTrip() throws Exception {
        feed(prompt(1), thought(2, "t"), chunk(3, "c"), toolCall(4), stderr(5, "s"), codexMarker(6), error(7, "e"));
        TurnState state = driver.turns().get("s1/1");
        ObjectMapper mapper = new ObjectMapper().registerModule(new JavaTimeModule());

        TurnState back = mapper.readValue(mapper.writeValueAsBytes(state), TurnState.class);

        assertThat(back).isEqualTo(state);
        assertThat(back.failureMarkerSeen()).isTrue();
        assertThat(mapper.writeValueAsBytes(state).length).isLessThan(4096);
    }

    @Test
    public void theTurnStoreEntryRecordsAppendTimesAndCounts() {
        driver.accept(prompt(1), Frames.T0.plusSeconds(10));
        driver.accept(stderr(2, "x"), Frames.T0.plusSeconds(5));
        driver.accept(stderr(3, "y"), Frames.T0.plusSeconds(20));
        TurnState s = driver.turns().get("s1/1");

        assertThat(s.firstAppendAt()).isEqualTo(Frames.T0.plusSeconds(5));
        assertThat(s.lastAppendAt()).isEqualTo(Frames.T0.plusSeconds(20));
        assertThat(s.signalsSeen()).isEqualTo(2);
        assertThat(s.droppedSignals()).isZero();
        assertThat(s.open()).isTrue();
        assertThat(s.turnKey()).isEqualTo("s1/1");
        assertThat(Instant.now()).isAfter(Frames.T0.minusSeconds(1)); // sanity: fixed clock independent
    }
}
