package io.recourse.bench;

/**
 * One benchmark configuration.
 *
 * @param topology       {@link Kind#PASS_THROUGH} (the physical limit: frames copied to an output
 *                       topic) or {@link Kind#FULL} ({@code RecourseTopology.build(config, options)})
 * @param guarantee      {@code at_least_once} or {@code exactly_once_v2}
 * @param threads        {@code num.stream.threads} per instance
 * @param instances      Kafka Streams instances (in this JVM, separate state directories)
 * @param rate           frames per second the producer paces itself to; 0 = as fast as it can
 * @param openTurnPhase  whether to follow the workload with one open half-turn per session and
 *                       measure the state it adds (bytes per open turn)
 */
public record Scenario(Kind topology, String guarantee, int threads, int instances, double rate, boolean openTurnPhase) {

    /** Which topology a scenario runs. */
    public enum Kind {
        PASS_THROUGH("pass-through"),
        FULL("full");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** A short label, e.g. {@code full eos t1 i1} or {@code full eos t1 i1 @5000/s}. */
    public String label() {
        return topology.label() + " " + shortGuarantee() + " t" + threads + " i" + instances
                + (rate > 0 ? " @" + Math.round(rate) + "/s" : "");
    }

    /** {@code alos} or {@code eos}. */
    public String shortGuarantee() {
        return guarantee.equals("exactly_once_v2") ? "eos" : "alos";
    }

    /** The same scenario at a paced rate. */
    public Scenario paced(double framesPerSecond) {
        return new Scenario(topology, guarantee, threads, instances, framesPerSecond, openTurnPhase);
    }
}
