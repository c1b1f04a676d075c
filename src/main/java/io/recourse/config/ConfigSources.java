package io.recourse.config;

import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.commons.text.similarity.LevenshteinDistance;

/**
 * Where configuration values come from, in increasing precedence: the defaults, a properties file,
 * {@code RECOURSE_*} environment variables, {@code recourse.*}/{@code kafka.*} Java system
 * properties, command-line flags. Also the configuration hygiene: a {@code recourse.*} key (file,
 * system property, flag) or a {@code RECOURSE_*} variable that names no setting fails with the
 * closest known name (Levenshtein distance), unless {@link #ALLOW_UNKNOWN} is {@code true}.
 * Kafka client and Streams keys pass through unchecked (a {@code RECOURSE_*} variable counts as one
 * when the {@code kafkaKey} predicate knows its key).
 */
public final class ConfigSources {

    /** Opt-out of the unknown-key check (forward compatibility): unknown keys are then only reported as warnings. */
    public static final String ALLOW_UNKNOWN = "recourse.config.allow-unknown";

    /** Where a value came from. */
    public enum Source {
        DEFAULT("default"), FILE("file"), ENV("env"), SYSTEM_PROPERTY("system property"), FLAG("flag");

        private final String label;

        Source(String label) {
            this.label = label;
        }

        /** E.g. {@code system property}. */
        public String label() {
            return label;
        }
    }

    private static final LevenshteinDistance LEVENSHTEIN = LevenshteinDistance.getDefaultInstance();

    private final Map<String, String> values = new LinkedHashMap<>();
    private final Map<String, Source> sources = new LinkedHashMap<>();
    private final List<String> unknown = new ArrayList<>();

    private ConfigSources() {
    }

    /**
     * Reads every source.
     *
     * @param file             a Java properties file, or {@code null}
     * @param env              the process environment (only {@code RECOURSE_*} entries are read)
     * @param systemProperties Java system properties (only {@code recourse.*} and {@code kafka.*} are read)
     * @param flags            keys and values given on the command line
     * @param kafkaKey         true for a Kafka client or Streams configuration name (e.g. {@code sasl.jaas.config})
     * @throws ConfigurationException when the file cannot be read, or on an unknown key without the opt-out
     */
    static ConfigSources read(Path file, Map<String, String> env, Map<String, String> systemProperties,
                              Map<String, String> flags, Predicate<String> kafkaKey) {
        ConfigSources s = new ConfigSources();
        RecourseConfig.defaultValues().forEach((k, v) -> s.put(k, v, Source.DEFAULT));
        if (file != null) {
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                p.load(r);
            } catch (IOException e) {
                throw new ConfigurationException("--config", file, "cannot read: " + e.getMessage());
            }
            for (String k : new TreeSet<>(p.stringPropertyNames())) {
                s.checkKey(k, file.toString());
                s.put(k, p.getProperty(k), Source.FILE);
            }
        }
        Map<String, String> known = new LinkedHashMap<>();
        knownKeys().forEach(k -> known.put(envName(k), k));
        new java.util.TreeMap<>(env).forEach((name, value) -> {
            if (!name.startsWith(RecourseConfig.ENV_PREFIX) || name.length() == RecourseConfig.ENV_PREFIX.length()) {
                return;
            }
            String key = known.get(name);
            if (key == null) {
                key = name.substring(RecourseConfig.ENV_PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.');
                if (!kafkaKey.test(key.startsWith(RecourseConfig.KAFKA_PREFIX) ? key.substring(RecourseConfig.KAFKA_PREFIX.length()) : key)) {
                    s.unknown.add("environment variable " + name + " sets no setting"
                            + closest(name, known.keySet()).map(c -> "; did you mean " + c + "?").orElse(""));
                }
            }
            s.put(key, value, Source.ENV);
        });
        new java.util.TreeMap<>(systemProperties).forEach((k, v) -> {
            if (k.startsWith("recourse.") || k.startsWith(RecourseConfig.KAFKA_PREFIX)) {
                s.checkKey(k, "system property");
                s.put(k, v, Source.SYSTEM_PROPERTY);
            }
        });
        new java.util.TreeMap<>(flags).forEach((k, v) -> {
            s.checkKey(k, "flag");
            s.put(k, v, Source.FLAG);
        });
        if (!s.unknown.isEmpty() && !"true".equals(s.values.get(ALLOW_UNKNOWN))) {
            throw new ConfigurationException(String.join("\n", s.unknown)
                    + "\n(set " + ALLOW_UNKNOWN + "=true to accept unknown keys, e.g. a newer version's)");
        }
        return s;
    }

    /** The keys and values read, last source winning. */
    Map<String, String> values() {
        return values;
    }

    /** Key → the source its value came from. */
    Map<String, Source> sources() {
        return sources;
    }

    /** The unknown keys accepted under {@link #ALLOW_UNKNOWN}, as messages (empty otherwise). */
    List<String> unknown() {
        return List.copyOf(unknown);
    }

    private void put(String key, String value, Source source) {
        String k = key.trim();
        values.put(k, value == null ? null : value.trim());
        sources.put(k, source);
    }

    private void checkKey(String key, String where) {
        String k = key.trim();
        if (k.startsWith("recourse.") && !knownKeys().contains(k)) {
            unknown.add("unknown key " + k + " (" + where + ")"
                    + closest(k, knownKeys()).map(c -> "; did you mean " + c + "?").orElse(""));
        }
    }

    /**
     * Every Recourse key: those with a default, the topic keys, and every {@code recourse.*} key
     * constant of {@link RecourseConfig} and of this class (keys without a default, such as
     * {@code recourse.topics.create}).
     */
    public static Set<String> knownKeys() {
        Set<String> keys = new TreeSet<>(RecourseConfig.defaultValues().keySet());
        for (Class<?> c : List.of(RecourseConfig.class, ConfigSources.class)) {
            for (Field f : c.getDeclaredFields()) {
                int m = f.getModifiers();
                if (Modifier.isPublic(m) && Modifier.isStatic(m) && f.getType() == String.class) {
                    try {
                        String v = (String) f.get(null);
                        if (v != null && v.startsWith("recourse.")) {
                            keys.add(v);
                        }
                    } catch (IllegalAccessException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        }
        return keys;
    }

    /** The candidate closest to {@code name} by Levenshtein distance, if one is within a third of its length. */
    static java.util.Optional<String> closest(String name, java.util.Collection<String> candidates) {
        return candidates.stream()
                .min(Comparator.comparingInt((String c) -> LEVENSHTEIN.apply(name, c)).thenComparing(c -> c))
                .filter(c -> LEVENSHTEIN.apply(name, c) <= Math.max(2, name.length() / 3));
    }

    /** The environment variable that sets {@code key}, e.g. {@code RECOURSE_TOPIC_PARTITIONS}. */
    public static String envName(String key) {
        String k = key.startsWith("recourse.") ? key.substring("recourse.".length()) : key;
        return RecourseConfig.ENV_PREFIX + k.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }
}
