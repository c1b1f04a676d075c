package io.recourse.reliability;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;

/** Small process helpers of the reliability harness. */
final class Ports {

    private Ports() {
    }

    /** A free port on 127.0.0.1. */
    static int free() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }

    /** This JVM's {@code java} executable. */
    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * The class path of the project's main code and dependencies: the test run's class path
     * ({@code surefire.test.class.path} under failsafe, else {@code java.class.path}) without the
     * test classes, so the child processes use the main {@code logback.xml}.
     */
    static String mainClassPath() {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        StringBuilder out = new StringBuilder();
        for (String e : cp.split(java.io.File.pathSeparator)) {
            if (e.isBlank() || e.replace('\\', '/').endsWith("test-classes") || e.replace('\\', '/').endsWith("test-classes/")) {
                continue;
            }
            if (out.length() > 0) {
                out.append(java.io.File.pathSeparator);
            }
            out.append(e);
        }
        return out.toString();
    }
}
