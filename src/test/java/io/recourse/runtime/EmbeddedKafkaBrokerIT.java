package io.recourse.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class EmbeddedKafkaBrokerIT {

    @TempDir
    public Path dir;

    @Test
    public void a_started_broker_serves_requests_and_a_restart_on_the_same_directory_keeps_its_topics() throws Exception {
        // given a broker started on a fresh directory, with a topic created on it
        String firstAddress;
        try (EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(dir).start()) {
            firstAddress = broker.bootstrapServers();
            System.out.println("embedded broker cold start: " + broker.startupTime().toMillis() + " ms");
            try (Admin admin = admin(broker)) {
                admin.createTopics(List.of(new NewTopic("kept", 2, (short) 1))).all().get();
                assertThat(admin.describeCluster().nodes().get()).hasSize(1);
            }
        }

        // when a new broker starts on the same directory
        try (EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(dir).start()) {
            System.out.println("embedded broker warm restart: " + broker.startupTime().toMillis() + " ms");
            // then it listens where the first one did and still has the topic
            assertThat(broker.bootstrapServers()).isEqualTo(firstAddress);
            try (Admin admin = admin(broker)) {
                Set<String> names = admin.listTopics().names().get();
                assertThat(names).contains("kept");
            }
        }
    }

    private static Admin admin(EmbeddedKafkaBroker broker) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }
}
