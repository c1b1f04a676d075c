package io.recourse.cli;

import io.recourse.classification.Catalogue;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The common start of the offline commands that run a rule file ({@code classify},
 * {@code catalogue check}, {@code catalogue explain}; no broker): the {@code --rules} option, the
 * command's output and error writers, and exit code 1 after {@link RulesOption#loadOrReport}
 * has printed why the rules could not be loaded.
 */
public abstract class OfflineCommand implements Callable<Integer> {

    @Mixin
    RulesOption rules;

    @Spec
    CommandSpec spec;

    @Override
    public final Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Catalogue catalogue = rules.loadOrReport(err);
        return catalogue == null ? 1 : run(catalogue, out, err);
    }

    /**
     * The command's work once the rules are loaded and valid.
     *
     * @param catalogue the rules of {@code --rules} (or the shipped catalogue)
     * @return the exit code
     */
    abstract int run(Catalogue catalogue, PrintWriter out, PrintWriter err);
}
