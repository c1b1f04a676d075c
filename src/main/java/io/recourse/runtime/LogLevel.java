package io.recourse.runtime;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import org.slf4j.LoggerFactory;

/**
 * Applies {@code recourse.log.level} ({@code RECOURSE_LOG_LEVEL}) to Recourse's own loggers
 * ({@code io.recourse}) when Logback is the SLF4J backend; Kafka's loggers keep {@code logback.xml}'s
 * WARN. Without Logback it does nothing.
 */
final class LogLevel {

    private LogLevel() {
    }

    static void apply(String level) {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            context.getLogger("io.recourse").setLevel(Level.toLevel(level, Level.INFO));
        }
    }
}
