package io.recourse.routing.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.avro.RouteCommand;
import io.recourse.demo.RoutingDemoScenario;
import io.recourse.kit.DeadLetters;
import io.recourse.kit.AvroSerde;
import io.recourse.routing.JitterSource;
import io.recourse.routing.RouteConfig;
import io.recourse.routing.RouteConfigJson;
import io.recourse.routing.Router;
import io.recourse.routing.RoutingDecision;
import io.recourse.routing.RoutingSettings;
import io.recourse.routing.RoutingSimulator;
import io.recourse.routing.RunControlAction;
import io.recourse.routing.RunRequest;
import io.recourse.routing.WorkspaceState;
import io.recourse.taxonomy.Code;
import io.recourse.topology.RecourseTopology;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The routing owner on the stream (DESIGN §7, §8) in a TopologyTestDriver: the simulator's
 * timelines replayed through the topology give the same records on the five output topics; the
 * route configuration stage validates into the compacted topic and dead-letters rejects.
 */
public class RoutingTopologyTest {

    private static final Instant T0 = Instant.parse("2026-11-30T09:00:00Z");
    private static final RoutingTopology.Options EXACT =
            new RoutingTopology.Options(RoutingSettings.DEFAULTS, JitterSource.none(), UnaryOperator.identity());

    /** The records the simulator's decisions stand for, per output topic, in order. */
    private static Map<String, List<KeyValue<String, SpecificRecord>>> expected(RoutingSimulator sim,
            java.util.function.Function<String, RouteConfig> configs) {
        Map<String, List<KeyValue<String, SpecificRecord>>> out = new LinkedHashMap<>();
        for (String t : List.of("route-commands", "run-state", "route-attempts", "provider-health", "parked-runs")) {
            out.put(t, new ArrayList<>());
        }
        WorkspaceState before = null;
        for (RoutingDecision d : sim.decisions()) {
            WorkspaceState b = before == null ? WorkspaceState.empty(d.state().workspaceId()) : before;
            for (RoutingOutput o : RoutingRecords.of(d, b, configs, EXACT.settings().dispatchTimeout())) {
                String topic = switch (o.kind()) {
                    case ROUTE_COMMAND -> "route-commands";
                    case RUN_STATE -> "run-state";
                    case ROUTE_ATTEMPT -> "route-attempts";
                    case PROVIDER_HEALTH -> "provider-health";
                    case PARKED_RUN -> "parked-runs";
                };
                out.get(topic).add(KeyValue.pair(o.key(), o.value()));
            }
            before = d.state();
        }
        return out;
    }

    /**
     * Per topic and key, the same records in the same order (compared as their JSON text, naming the
     * first difference). Order across keys may differ: the punctuator fires every entry due at one
     * instant before the dispatcher's answers to the first of them arrive, where the simulator
     * answers each command at once; Kafka orders records per key only.
     */
    private static void assertSameRecords(Map<String, List<KeyValue<String, SpecificRecord>>> actual,
                                          Map<String, List<KeyValue<String, SpecificRecord>>> expected) {
        for (String topic : expected.keySet()) {
            Map<String, List<String>> a = byKey(actual.get(topic));
            Map<String, List<String>> e = byKey(expected.get(topic));
            assertThat(a.keySet()).as("%s keys", topic).containsExactlyInAnyOrderElementsOf(e.keySet());
            for (String key : e.keySet()) {
                List<String> ak = a.get(key);
                List<String> ek = e.get(key);
                for (int i = 0; i < Math.min(ak.size(), ek.size()); i++) {
                    assertThat(ak.get(i)).as("%s %s record %d", topic, key, i).isEqualTo(ek.get(i));
                }
                assertThat(ak).as("%s %s", topic, key).hasSameSizeAs(ek);
            }
        }
    }

    private static Map<String, List<String>> byKey(List<KeyValue<String, SpecificRecord>> records) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        records.forEach(kv -> out.computeIfAbsent(kv.key, k -> new ArrayList<>()).add(String.valueOf(kv.value)));
        return out;
    }

    private static RoutingSimulator simulator(RouteConfig... configs) {
        Map<String, RouteConfig> byId = new LinkedHashMap<>();
        for (RouteConfig c : configs) {
            byId.put(c.dynamicProfileId(), c);
        }
        return new RoutingSimulator(new Router(RoutingSettings.DEFAULTS, JitterSource.none(), byId::get),
                RoutingDemoScenario.WORKSPACE, T0);
    }

    /** A replayed script: the simulator and the topology's records per output topic. */
    private record Replay(RoutingSimulator sim, Map<String, List<KeyValue<String, SpecificRecord>>> outputs) {

        /** The values the topology wrote on {@code topic} under {@code key}, in order (a tombstone is {@code null}). */
        List<SpecificRecord> of(String topic, String key) {
            return outputs.get(topic).stream().filter(kv -> kv.key.equals(key)).map(kv -> kv.value).toList();
        }
    }

    /** Plays {@code script} on a simulator, replays its inputs through the topology and compares the outputs. */
    private static Replay replay(Consumer<RoutingSimulator> script, RouteConfig... configs) {
        RoutingSimulator sim = simulator(configs);
        script.accept(sim);
        try (RoutingDriver driver = new RoutingDriver(T0, EXACT)) {
            for (RouteConfig c : configs) {
                driver.routeConfig(c);
            }
            driver.replay(sim.inputs());
            driver.advanceTo(sim.now());
            Map<String, RouteConfig> byId = new LinkedHashMap<>();
            for (RouteConfig c : configs) {
                byId.put(c.dynamicProfileId(), c);
            }
            Map<String, List<KeyValue<String, SpecificRecord>>> outputs = driver.outputs();
            assertSameRecords(outputs, expected(sim, byId::get));
            return new Replay(sim, outputs);
        }
    }

    private static RoutingSimulator replayed(Consumer<RoutingSimulator> script, RouteConfig... configs) {
        return replay(script, configs).sim();
    }

    @Nested
    public class SimulatorTimelinesReplayed {

        @Test
        void theDemoScenarioOfTwentyRunsWritesTheSimulatorsRecordsOnEveryOutputTopic() {
            RoutingSimulator sim = replayed(s -> RoutingDemoScenario.play(s, 20), RoutingDemoScenario.config());
            assertThat(sim.commands()).hasSizeGreaterThan(60);
        }

        @Test
        void theWaiterOfADeclinedCooldownOwnerIsReleasedAtOnce() {
            Replay r = replay(s -> {
                s.request("r1", RoutingDemoScenario.PROFILE);
                s.request("r2", RoutingDemoScenario.PROFILE);
                s.fail("r1", Code.MODEL_CAPACITY);
                s.fail("r2", Code.MODEL_CAPACITY);
                s.silence("r1");
                s.advanceTo(s.run("r1").retryAt());
                s.ackFailed("r1", "dispatch_failed");
            }, RoutingDemoScenario.config());
            List<SpecificRecord> r2 = r.of("run-state", "r2");
            assertThat(r2).extracting(v -> ((io.recourse.avro.RunState) v).getStatus().toString())
                    .contains("waiting_for_cooldown");
            io.recourse.avro.RunState last = (io.recourse.avro.RunState) r2.get(r2.size() - 1);
            assertThat(last.getStatus()).as("released when r1's ack failed").isNotEqualTo("waiting_for_cooldown");
            assertThat(last.getReason()).isEqualTo("cooldown_owner_declined");
            assertThat(r.of("route-commands", "r1")).extracting(v -> ((RouteCommand) v).getReason())
                    .last().isEqualTo("dispatch_failed");
        }

        @Test
        void aShortRetryThatSucceedsWritesTheSameRecordsAsTheSimulator() {
            replayed(s -> {
                s.request("r1", RoutingDemoScenario.PROFILE);
                s.fail("r1", Code.PROVIDER_OVERLOADED);
                s.advanceTo(s.run("r1").retryAt());
                s.progress("r1");
                s.complete("r1");
                s.finish("r1");
            }, RoutingDemoScenario.config());
        }

        @Test
        void anUnconfirmedDispatchTimesOutAndDeclinesAsInTheSimulator() {
            Replay r = replay(s -> {
                s.silence("r1");
                s.request("r1", RoutingDemoScenario.PROFILE);
                s.advance(Duration.ofSeconds(45));
            }, RoutingDemoScenario.config());
            assertThat(r.of("route-commands", "r1")).extracting(v -> (RouteCommand) v)
                    .extracting(RouteCommand::getAction, RouteCommand::getReason, RouteCommand::getIssuedAt)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("launch", "launch", T0),
                            org.assertj.core.groups.Tuple.tuple("decline", "dispatch_unconfirmed", T0.plusSeconds(30)));
        }

        @Test
        void manualControlsAndAFailedAckWriteTheSameRecordsAsTheSimulator() {
            replayed(s -> {
                s.request("r1", RoutingDemoScenario.PROFILE);
                s.request("r2", RoutingDemoScenario.PROFILE);
                s.fail("r1", Code.PROVIDER_UNAVAILABLE);
                s.control("r1", RunControlAction.TRY_NEXT_NOW);
                s.fail("r2", Code.QUOTA_LIMITED);
                s.fail("r2", Code.AUTH_REQUIRED);
                s.control("r2", RunControlAction.CANCEL_WAIT);
                s.silence("r1");
                s.fail("r1", Code.MODEL_CAPACITY);
                s.advanceTo(s.run("r1").retryAt());
                s.ackFailed("r1", "dispatch_failed");
            }, RoutingDemoScenario.config());
        }

        @Test
        void aRunRequestedWhileItsOnlyRouteWaitsForAResetParksAtOnceAndBothWakeAsInTheSimulator() {
            RoutingSimulator sim = replayed(s -> {
                s.request("p1", RoutingDemoScenario.PROFILE);
                Instant reset = s.now().plusSeconds(50);
                s.fail("p1", RoutingSimulator.classification(Code.QUOTA_LIMITED,
                        io.recourse.taxonomy.Confidence.HIGH, null, reset), false, false);
                s.request("p2", RoutingDemoScenario.PROFILE);
                s.advanceTo(reset.plusSeconds(5));
            }, RoutingDemoScenario.config().withFallbackEnabled(false));
            assertThat(sim.commands()).extracting(io.recourse.routing.RouteCommand::commandId)
                    .containsExactly("p1#1", "p1#2", "p2#1");
        }

        @Test
        void aRequestForAProfileWithoutDocumentIsDeclinedAsInTheSimulator() {
            Replay r = replay(s -> s.request("r1", "unknown-profile"), RoutingDemoScenario.config());
            assertThat(r.of("route-commands", "r1")).singleElement().satisfies(v -> {
                assertThat(((RouteCommand) v).getAction()).isEqualTo("decline");
                assertThat(((RouteCommand) v).getReason()).isEqualTo("no_route_config");
            });
        }

        @Test
        void parkedRunsWakeAtTheQuotaResetAsInTheSimulatorWithFallbackDisabled() {
            Instant reset = T0.plusSeconds(90);
            Replay r = replay(s -> {
                s.request("r1", RoutingDemoScenario.PROFILE);
                s.fail("r1", RoutingSimulator.classification(Code.QUOTA_LIMITED,
                        io.recourse.taxonomy.Confidence.HIGH, null, reset), false, false);
                s.advanceTo(reset.plusSeconds(5));
            }, RoutingDemoScenario.config().withFallbackEnabled(false));
            List<SpecificRecord> parked = r.of("parked-runs", "r1");
            assertThat(parked).hasSize(2);
            assertThat(((io.recourse.avro.ParkedRun) parked.get(0)).getWakeAt()).isEqualTo(reset);
            assertThat(parked.get(1)).as("a tombstone on the wake").isNull();
            assertThat(r.of("route-commands", "r1")).extracting(v -> ((RouteCommand) v).getIssuedAt())
                    .containsExactly(T0, reset);
        }
    }

    @Nested
    public class RouteConfiguration {

        @Test
        void aValidDocumentIsNormalizedOntoTheValidatedTopicKeyedByItsProfile() {
            try (RoutingDriver driver = new RoutingDriver(T0, EXACT)) {
                driver.routeConfig(RoutingDemoScenario.config());

                var records = driver.validated.readKeyValuesToList();
                assertThat(records).singleElement().satisfies(kv -> {
                    assertThat(kv.key).isEqualTo(RoutingDemoScenario.PROFILE);
                    assertThat(RoutingAvro.fromAvro(kv.value)).isEqualTo(RoutingDemoScenario.config());
                });
                assertThat(driver.dlq.isEmpty()).isTrue();
            }
        }

        @Test
        void anInvalidDocumentGoesToTheDlqWithTheFieldNamedAndItsOriginalBytes() {
            try (RoutingDriver driver = new RoutingDriver(T0, EXACT)) {
                String bad = RouteConfigJsonFixture.withMaxRetries(RoutingDemoScenario.config(), 11);
                driver.routeConfigRaw(RoutingDemoScenario.PROFILE, bad);

                var dead = driver.dlq.readRecord();
                assertThat(new String(dead.value(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(bad);
                assertThat(DeadLetters.header(dead.headers(), DeadLetters.ERROR_CODE))
                        .isEqualTo(RoutingTopology.INVALID_ROUTE_CONFIG);
                assertThat(DeadLetters.header(dead.headers(), DeadLetters.ERROR_MESSAGE))
                        .contains("candidates[0].policies.transient.retry.max_retries");
                assertThat(DeadLetters.header(dead.headers(), DeadLetters.SOURCE_TOPIC)).isEqualTo("recourse.route-config");
                assertThat(driver.validated.isEmpty()).isTrue();
            }
        }

        @Test
        void aDocumentWhoseKeyIsNotItsProfileGoesToTheDlqAsKeyMismatch() {
            try (RoutingDriver driver = new RoutingDriver(T0, EXACT)) {
                driver.routeConfigRaw("other-profile",
                        io.recourse.routing.RouteConfigJson.write(RoutingDemoScenario.config()));

                var dead = driver.dlq.readRecord();
                assertThat(DeadLetters.header(dead.headers(), DeadLetters.ERROR_CODE)).isEqualTo("key_mismatch");
                assertThat(driver.validated.isEmpty()).isTrue();
            }
        }

        @Test
        void afterAnInvalidUpdateThePreviousDocumentKeepsRouting() {
            try (RoutingDriver driver = new RoutingDriver(T0, EXACT)) {
                driver.routeConfig(RoutingDemoScenario.config());
                driver.routeConfigRaw(RoutingDemoScenario.PROFILE,
                        RouteConfigJsonFixture.withMaxRetries(RoutingDemoScenario.config(), 0));

                driver.request(new RunRequest("q1", "r1", RoutingDemoScenario.WORKSPACE, RoutingDemoScenario.PROFILE,
                        "t1", T0));

                RouteCommand launch = driver.commands.readValue();
                assertThat(launch.getAction()).isEqualTo("launch");
                assertThat(launch.getExecutionProfileId()).isEqualTo("codex-gpt5");
                assertThat(driver.dlq.getQueueSize()).isEqualTo(1);
            }
        }

        @Test
        void aNullValueIsDeadLetteredByDefaultAndTheLastValidDocumentStaysInForce() {
            try (RoutingDriver driver = new RoutingDriver(T0, EXACT)) {
                driver.routeConfig(RoutingDemoScenario.config());
                driver.validated.readRecordsToList();
                driver.routeConfigRaw(RoutingDemoScenario.PROFILE, null);

                var dead = driver.dlq.readRecord();
                assertThat(DeadLetters.header(dead.headers(), DeadLetters.ERROR_CODE))
                        .isEqualTo(RoutingTopology.ROUTE_CONFIG_TOMBSTONE_REJECTED);
                assertThat(driver.validated.isEmpty()).isTrue();
                driver.request(new RunRequest("q1", "r1", RoutingDemoScenario.WORKSPACE, RoutingDemoScenario.PROFILE,
                        "t1", T0));
                assertThat(driver.commands.readValue().getAction()).isEqualTo("launch");
            }
        }

        @Test
        void aNullValueDeletesTheDocumentWhenTombstonesAreAllowed() {
            try (RoutingDriver driver = new RoutingDriver(T0, EXACT,
                    Map.of(io.recourse.config.RecourseConfig.ROUTE_CONFIG_TOMBSTONES, "allow"))) {
                driver.routeConfig(RoutingDemoScenario.config());
                driver.validated.readRecordsToList();
                driver.routeConfigRaw(RoutingDemoScenario.PROFILE, null);

                var tombstone = driver.validated.readRecord();
                assertThat(tombstone.key()).isEqualTo(RoutingDemoScenario.PROFILE);
                assertThat(tombstone.value()).isNull();
                assertThat(driver.dlq.isEmpty()).isTrue();
                driver.request(new RunRequest("q1", "r1", RoutingDemoScenario.WORKSPACE, RoutingDemoScenario.PROFILE,
                        "t1", T0));
                assertThat(driver.runStates.readValuesToList()).last()
                        .satisfies(s -> assertThat(s.getReason()).contains("no_route_config"));
            }
        }

        @Test
        void aDocumentWithAnUnknownTopLevelFieldStillRoutesAndIsCounted() {
            var registry = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
            io.micrometer.core.instrument.Metrics.addRegistry(registry);
            try (RoutingDriver driver = new RoutingDriver(T0, EXACT)) {
                String json = RouteConfigJson.write(RoutingDemoScenario.config()).replaceFirst("\\{", "{\"owner\":\"ops\",");
                driver.routeConfigRaw(RoutingDemoScenario.PROFILE, json);

                assertThat(driver.dlq.isEmpty()).isTrue();
                assertThat(RoutingAvro.fromAvro(driver.validated.readValue())).isEqualTo(RoutingDemoScenario.config());
                assertThat(registry.get(io.recourse.evidence.streams.RecourseMeters.ROUTE_CONFIG_UNKNOWN_FIELDS).counter().count()).isEqualTo(1.0);
            } finally {
                io.micrometer.core.instrument.Metrics.removeRegistry(registry);
            }
        }

        @Test
        void aDocumentThatIsNotUtf8OrRepeatsAKeyGoesToTheDlq() {
            try (RoutingDriver driver = new RoutingDriver(T0, EXACT)) {
                String json = RouteConfigJson.write(RoutingDemoScenario.config());
                byte[] latin1 = json.replaceFirst("\"codex-gpt5\"", "\"codex-gpt5-\u00e9\"")
                        .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
                driver.routeConfigBytes(RoutingDemoScenario.PROFILE, latin1);
                driver.routeConfigRaw(RoutingDemoScenario.PROFILE, json.replaceFirst("\\{", "{\"version\":1,"));

                assertThat(driver.dlq.readRecordsToList()).extracting(r -> DeadLetters.header(r.headers(), DeadLetters.ERROR_CODE))
                        .containsExactly(RoutingTopology.INVALID_ROUTE_CONFIG, RoutingTopology.INVALID_ROUTE_CONFIG);
                assertThat(driver.validated.isEmpty()).isTrue();
            }
        }

        @Test
        void aNewValidDocumentReplacesTheOldOneForTheNextRoute() {
            try (RoutingDriver driver = new RoutingDriver(T0, EXACT)) {
                driver.routeConfig(RoutingDemoScenario.config());
                RouteConfig reordered = RouteConfig.defaultFor(RoutingDemoScenario.PROFILE,
                        List.of(RoutingDemoScenario.CANDIDATES.get(2), RoutingDemoScenario.CANDIDATES.get(0)));
                driver.routeConfig(reordered);

                driver.request(new RunRequest("q1", "r1", RoutingDemoScenario.WORKSPACE, RoutingDemoScenario.PROFILE,
                        "t1", T0));

                assertThat(driver.commands.readValue().getExecutionProfileId()).isEqualTo("gemini-pro");
            }
        }
    }

    @Nested
    public class OfficeInputs {

        @Test
        void aRunRequestThatIsNotJsonGoesToTheDlqAndTheNextOneIsRouted() {
            try (RoutingDriver driver = new RoutingDriver(T0, EXACT)) {
                driver.routeConfig(RoutingDemoScenario.config());
                driver.rawRequest(RoutingDemoScenario.WORKSPACE, "{not json");
                driver.request(new RunRequest("q1", "r1", RoutingDemoScenario.WORKSPACE, RoutingDemoScenario.PROFILE,
                        "t1", T0));

                var dead = driver.dlq.readRecord();
                assertThat(DeadLetters.header(dead.headers(), DeadLetters.ERROR_CODE)).isEqualTo("invalid_json");
                assertThat(driver.commands.readValue().getRunId()).isEqualTo("r1");
            }
        }

        @Test
        void aRunRequestWithoutWorkspaceGoesToTheDlqAsMissingField() {
            try (RoutingDriver driver = new RoutingDriver(T0, EXACT)) {
                driver.rawRequest("w-1", "{\"request_id\":\"q\",\"run_id\":\"r\",\"dynamic_profile_id\":\"p\","
                        + "\"occurred_at\":\"2026-11-30T09:00:00Z\"}");

                var dead = driver.dlq.readRecord();
                assertThat(DeadLetters.header(dead.headers(), DeadLetters.ERROR_CODE)).isEqualTo("missing_field");
                assertThat(DeadLetters.header(dead.headers(), DeadLetters.ERROR_MESSAGE)).contains("workspace_id");
            }
        }

        @Test
        void routeCommandsAreWrittenOnlyWhenDue() {
            try (RoutingDriver driver = new RoutingDriver(T0, EXACT)) {
                RoutingSimulator sim = simulator(RoutingDemoScenario.config());
                sim.request("r1", RoutingDemoScenario.PROFILE);
                sim.fail("r1", Code.MODEL_CAPACITY);
                driver.routeConfig(RoutingDemoScenario.config());
                driver.replay(sim.inputs());
                Instant retryAt = sim.run("r1").retryAt();
                assertThat(driver.commands.readValuesToList()).extracting(RouteCommand::getAction).containsExactly("launch");

                driver.advanceTo(retryAt.minusMillis(1));
                assertThat(driver.commands.isEmpty()).isTrue();
                driver.advanceTo(retryAt);

                RouteCommand retry = driver.commands.readValue();
                assertThat(retry.getAction()).isEqualTo("retry_same_route");
                assertThat(retry.getIssuedAt()).isEqualTo(retryAt);
            }
        }
    }

    @Nested
    public class Durability {

        @Test
        void aParkedRunAndItsWakeAreOnTheChangelogsAndTheWakeEntryIsDeletedWhenItFires() {
            try (RoutingDriver driver = new RoutingDriver(T0, EXACT)) {
                RoutingSimulator sim = simulator(RoutingDemoScenario.config().withFallbackEnabled(false));
                sim.request("p1", RoutingDemoScenario.PROFILE);
                Instant reset = sim.now().plusSeconds(90);
                sim.fail("p1", RoutingSimulator.classification(Code.QUOTA_LIMITED,
                        io.recourse.taxonomy.Confidence.HIGH, null, reset), false, false);
                driver.routeConfig(RoutingDemoScenario.config().withFallbackEnabled(false));
                driver.replay(sim.inputs());
                var runs = driver.driver.createOutputTopic("recourse-routing-test-" + RoutingTopology.RUNS_STORE + "-changelog",
                        new org.apache.kafka.common.serialization.StringDeserializer(),
                        AvroSerde.of(io.recourse.avro.RoutingRunValue.class));
                var timers = driver.driver.createOutputTopic("recourse-routing-test-" + RoutingTopology.TIMERS_STORE + "-changelog",
                        new org.apache.kafka.common.serialization.BytesDeserializer(),
                        new org.apache.kafka.common.serialization.StringDeserializer());
                byte[] wakeKey = new io.recourse.routing.TimerEntry(io.recourse.routing.RoutingTimerKind.PARKED_WAKE, reset, "p1").key();

                var parked = runs.readKeyValuesToMap().get(RoutingProcessor.runKey(RoutingDemoScenario.WORKSPACE, "p1"));
                assertThat(parked.getParked()).isTrue();
                assertThat(parked.getWakeAt()).isEqualTo(reset);
                assertThat(timers.readKeyValuesToList()).anySatisfy(kv -> {
                    assertThat(kv.key.get()).isEqualTo(wakeKey);
                    assertThat(kv.value).isEqualTo(RoutingDemoScenario.WORKSPACE);
                });

                driver.advanceTo(reset);

                assertThat(timers.readKeyValuesToList()).anySatisfy(kv -> {
                    assertThat(kv.key.get()).isEqualTo(wakeKey);
                    assertThat(kv.value).isNull();
                });
                assertThat(runs.readKeyValuesToMap().get(RoutingProcessor.runKey(RoutingDemoScenario.WORKSPACE, "p1"))
                        .getParked()).isFalse();
            }
        }
    }

    @Test
    public void everyProcessorStoreAndTopicOfTheRoutingStageIsNamedExplicitly() {
        String described = RoutingTestTopology.build(io.recourse.config.RecourseConfig.defaults(), EXACT)
                .describe().toString();
        assertThat(described).doesNotContain("KSTREAM-", "KTABLE-", "KSTREAM-SOURCE");
        assertThat(described).contains(RoutingTopology.RUNS_STORE, RoutingTopology.WORKSPACES_STORE,
                RoutingTopology.TIMERS_STORE, RoutingTopology.ROUTE_CONFIG_STORE,
                RecourseTopology.RUN_REQUESTS_BY_WORKSPACE, RecourseTopology.RUN_CONTROLS_BY_WORKSPACE,
                RecourseTopology.OFFICE_ACKS_BY_WORKSPACE, RecourseTopology.SESSION_EVENTS_BY_WORKSPACE);
    }
}
