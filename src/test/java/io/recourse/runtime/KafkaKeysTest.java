package io.recourse.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KafkaKeysTest {

    @Test
    void kafkas_client_and_streams_names_are_known_with_or_without_a_client_prefix() {
        assertThat(KafkaKeys.known("sasl.jaas.config")).isTrue();
        assertThat(KafkaKeys.known("num.stream.threads")).isTrue();
        assertThat(KafkaKeys.known("producer.max.request.size")).isTrue();
        assertThat(KafkaKeys.known("main.consumer.fetch.max.bytes")).isTrue();
    }

    @Test
    void misspelt_or_foreign_names_are_not() {
        assertThat(KafkaKeys.known("stalenes.ms")).isFalse();
        assertThat(KafkaKeys.known("producer.max.requst.size")).isFalse();
    }
}
