package io.recourse.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.config.RecourseConfig;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;

/** The reliability audit's checks on hand-made records: each violation kind is found and named. */
class AuditTest {

    private static final Topics TOPICS = Topics.from(RecourseConfig.defaults());
    private static final Instant T = Instant.parse("2026-12-01T12:00:00Z");
    private final Map<String, List<ConsumerRecord<byte[], byte[]>>> records = new HashMap<>();
    private final Workload.Ledger ledger = new Workload.Ledger();
    private long offset;

    private void add(String topic, String key, byte[] value, RecordHeader... headers) {
        ConsumerRecord<byte[], byte[]> r = new ConsumerRecord<>(topic, 0, offset++, key == null ? null : key.getBytes(StandardCharsets.UTF_8), value);
        for (RecordHeader h : headers) {
            r.headers().add(h);
        }
        records.computeIfAbsent(topic, k -> new ArrayList<>()).add(r);
    }

    private void state(String session, String status, int attempt, String reason) {
        state(session, 1, status, attempt, reason);
    }

    private void state(String session, int generation, String status, int attempt, String reason) {
        io.recourse.avro.RecoveryState s = io.recourse.avro.RecoveryState.newBuilder().setSessionId(session).setGeneration(generation)
                .setStatus(status).setDisposition("auto_retry").setAttempt(attempt).setMaxAttempts(5).setReason(reason)
                .setUpdatedAt(T).build();
        add(TOPICS.kanbanRecoveryState().name(), session, AvroSerde.of(io.recourse.avro.RecoveryState.class).serialize("t", s));
    }

    private void command(String session, String id, int attempt) {
        io.recourse.avro.RetryCommand c = io.recourse.avro.RetryCommand.newBuilder().setCommandId(id).setSessionId(session)
                .setExpectedGeneration(attempt).setChainStartGeneration(1).setAttempt(attempt).setMaxAttempts(5)
                .setCode("provider_overloaded").setRuleId("r").setRetryAt(T).setIssuedAt(T).build();
        add(TOPICS.kanbanRetryCommands().name(), session, AvroSerde.of(io.recourse.avro.RetryCommand.class).serialize("t", c));
    }

    private Audit.Result check(List<Corpora.Secret> secrets) throws Exception {
        return new Audit(TOPICS, "app").check(records, new ArrayList<>(records.keySet()), ledger, secrets, List.of(),
                List.of("recourse_turns_total{code=\"x\"} 1\n"));
    }

    @Test
    void aCleanChainPasses() throws Exception {
        ledger.sessions.put("s1", Workload.KanbanKind.RETRY_OK);
        state("s1", "scheduled", 1, null);
        state("s1", "dispatching", 1, null);
        command("s1", "c1", 1);
        state("s1", "awaiting_outcome", 1, null);
        state("s1", "disarmed", 1, "retry_succeeded");
        assertThat(check(List.of()).violations).isEmpty();
    }

    @Test
    void findsDuplicateCommandsCommandsForDisarmedChainsAndUnendedChains() throws Exception {
        ledger.sessions.put("dup", Workload.KanbanKind.RETRY_OK);
        state("dup", "scheduled", 1, null);
        state("dup", "dispatching", 1, null);
        command("dup", "c1", 1);
        command("dup", "c1", 1);
        state("dup", "disarmed", 1, "retry_succeeded");
        ledger.sessions.put("disarmed", Workload.KanbanKind.NEW_PROMPT);
        state("disarmed", "scheduled", 1, null);
        state("disarmed", "disarmed", 1, "new_prompt");
        command("disarmed", "c2", 1);
        ledger.sessions.put("open", Workload.KanbanKind.RETRY_OK);
        state("open", "scheduled", 1, null);
        ledger.sessions.put("late", Workload.KanbanKind.RETRY_OK);
        state("late", "scheduled", 1, null);
        state("late", "manual", 1, "dispatch_unconfirmed");
        state("late", "dispatching", 1, null);
        assertThat(check(List.of()).byCheck()).containsEntry("no-duplicate-command-id", 1L)
                .containsEntry("retry-issued-once", 1L)
                .containsEntry("no-command-for-disarmed-chain", 1L)
                .containsEntry("no-command-for-ended-chain", 1L)
                .containsEntry("chain-ends", 1L); // "open"; "late" ended (manual) before its stray dispatching
    }

    @Test
    void findsPlantedSecretsOutsideTheDeadLetterQueueOnlyWithTheirTopicAndPlace() throws Exception {
        Corpora.Secret secret = new Corpora.Secret("openai", "sk-proj-TESTSECRET123456", "key {S}");
        add("app-some-store-changelog", "k", ("xx key " + secret.secret()).getBytes(StandardCharsets.UTF_8));
        add(TOPICS.officeProviderHealth().name(), "k", new byte[] {1},
                new RecordHeader("authorization", ("Bearer " + secret.secret()).getBytes(StandardCharsets.UTF_8)));
        add(TOPICS.dlq().name(), "k", secret.secret().getBytes(StandardCharsets.UTF_8));
        add(TOPICS.agentFrames().name(), "k", secret.secret().getBytes(StandardCharsets.UTF_8));
        Audit.Result r = new Audit(TOPICS, "app").check(records, new ArrayList<>(records.keySet()), ledger, List.of(secret),
                List.of(), List.of("recourse_x{label=\"" + secret.secret() + "\"} 1\n"));
        assertThat(r.violations).extracting(Audit.Violation::toString)
                .anySatisfy(v -> assertThat(v).contains("app-some-store-changelog (value)"))
                .anySatisfy(v -> assertThat(v).contains("recourse.office.provider-health (header authorization)"))
                .anySatisfy(v -> assertThat(v).startsWith("[secret-in-metrics]"))
                .noneSatisfy(v -> assertThat(v).contains(TOPICS.dlq().name()))
                .noneSatisfy(v -> assertThat(v).contains(TOPICS.agentFrames().name()));
        assertThat(r.violations).hasSize(3);
    }

    @Test
    void findsAFailingTurnClassifiedTwiceOrNever() throws Exception {
        ledger.failingTurns.add("a/1");
        ledger.failingTurns.add("b/1");
        io.recourse.avro.Classification c = io.recourse.avro.Classification.newBuilder()
                .setSessionId("a").setPromptGeneration(1).setCode("provider_overloaded").setClass$("transient")
                .setConfidence("high").setRuleId("r").setCatalogueVersion("v").setScope("provider")
                .setBackground(false).setLaunch(false).setReplaySafe(true).setAssistantOutputSeen(false)
                .setToolActivitySeen(false).setOccurredAt(T).setRecordedAt(T).build();
        byte[] bytes = AvroSerde.of(io.recourse.avro.Classification.class).serialize("t", c);
        add(TOPICS.classifications().name(), "a", bytes);
        add(TOPICS.classifications().name(), "a", bytes);
        assertThat(check(List.of()).violations).extracting(Audit.Violation::toString)
                .anySatisfy(v -> assertThat(v).contains("turn a/1 classified 2 times"))
                .anySatisfy(v -> assertThat(v).contains("failing turn b/1 never classified"));
    }

    private void superseded(String id) {
        add(TOPICS.kanbanDispatchAcks().name(), id, ("{\"command_id\":\"" + id + "\",\"status\":\"failed\",\"reason\":\"superseded\"}")
                .getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aRetryIssuedAfterTheOwnerSawTheNewerGenerationIsAStaleChainViolation() throws Exception {
        ledger.sessions.put("s", Workload.KanbanKind.NEW_PROMPT);
        state("s", "scheduled", 1, null);
        state("s", 2, "scheduled", 1, null); // the owner already published generation 2
        state("s", 2, "dispatching", 1, null);
        command("s", "c1", 1);
        superseded("c1");
        state("s", 2, "disarmed", 1, "new_prompt");
        Audit.Result r = check(List.of());
        assertThat(r.byCheck()).containsEntry("no-command-for-stale-chain", 1L);
        assertThat(r.violations).extracting(Audit.Violation::toString)
                .anySatisfy(v -> assertThat(v).contains("c1").contains("generation 2 at recovery-state partition 0 offset 1"));
        assertThat(r.supersededByDispatcher).isZero();
    }

    @Test
    void aRetryIssuedBeforeTheOwnerSawTheNewerPromptIsCountedAsSupersededByTheDispatcher() throws Exception {
        ledger.sessions.put("s", Workload.KanbanKind.NEW_PROMPT);
        add(TOPICS.agentFrames().name(), "s/2", new byte[] {1});
        state("s", "scheduled", 1, null);
        state("s", "dispatching", 1, null);
        command("s", "c1", 1);
        superseded("c1");
        state("s", 2, "disarmed", 1, "new_prompt"); // the newer prompt processed after the command
        Audit.Result r = check(List.of());
        assertThat(r.byCheck()).doesNotContainKey("no-command-for-stale-chain");
        assertThat(r.supersededByDispatcher).isEqualTo(1);
        assertThat(r.worstLag).contains("c1");
    }

    @Test
    void aSecretOnlyInsideAKeptVerbatimIdIsCountedNotAViolation() throws Exception {
        Corpora.Secret secret = new Corpora.Secret("openai", "sk-proj-TESTSECRET123456", "key {S}");
        String taskId = Workload.plantedIds(secret).get("task_id");
        add("app-evidence-turns-changelog", "k", ("..task_id." + taskId + "..").getBytes(StandardCharsets.UTF_8));
        add("app-other-changelog", "k", ("..task_id." + taskId + ".. note " + secret.secret()).getBytes(StandardCharsets.UTF_8));
        Audit.Result r = check(List.of(secret));
        assertThat(r.keptVerbatim).containsEntry("openai in app-evidence-turns-changelog (value), task_id", 1L);
        assertThat(r.violations).extracting(Audit.Violation::toString).singleElement()
                .satisfies(v -> assertThat(v).contains("app-other-changelog (value)"));
    }
}
