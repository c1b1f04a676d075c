package io.recourse.classification;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A fixed set of ASCII literals found in a text in one pass: which literals occur, and
 * where each first starts. Built once per {@link Catalogue} from its regexes' required literals
 * ({@link RuleIndex}).
 *
 * <p>Each literal is case-sensitive or ASCII case-insensitive — exactly how a
 * {@code CASE_INSENSITIVE} regex without {@code UNICODE_CASE} compares characters: ASCII letters
 * fold, every other character compares as itself. The text is read once with a rolling code of
 * its last three characters (folded); an 8 KiB filter of the literals' first three characters
 * says at which positions a literal may start, and only there is the text compared — one walk
 * down a trie of the rest of the literals sharing those three characters (folded), so a
 * character is compared once whatever the number of literals starting alike. The filter stays in
 * the processor's first-level cache whatever else the classifier touches, unlike an automaton's
 * transition table.
 */
public final class LiteralSet {

    /** Shortest literal: a literal is looked up by its first three characters. */
    static final int MIN_LENGTH = 3;

    private static final int FILTER_BITS = 16;
    private static final int[] NONE = new int[0];
    /** ASCII char → its folded 7-bit code; any other char → 0. */
    private static final byte[] CODE = new byte[128];

    static {
        for (char c = 0; c < 128; c++) {
            CODE[c] = (byte) fold(c);
        }
    }

    private final String[] literals;
    private final boolean[] caseSensitive;
    /** Bit per hashed first trigram of some literal. */
    private final long[] filter = new long[1 << (FILTER_BITS - 6)];
    /** Open addressing: first trigram (21 bits) per slot ({@code -1}: empty); its literals are in the slot's trie. */
    private final int[] slotTrigram;
    private final int slotMask;
    /** All literals' characters (folded when case-insensitive): literal {@code id} is {@code chars[from[id] .. from[id + 1])}. */
    private final char[] chars;
    private final int[] from;
    /**
     * Per slot, the root of the trie of its literals after their first three characters (folded):
     * node {@code v}'s edges are {@code edgeChar/edgeNode[edgeFrom[v] .. edgeFrom[v + 1])}, the
     * literals ending at it {@code nodeIds[idFrom[v] .. idFrom[v + 1])}.
     */
    private final int[] slotRoot;
    private final int[] edgeFrom;
    private final char[] edgeChar;
    private final int[] edgeNode;
    private final int[] idFrom;
    private final int[] nodeIds;

    /**
     * @param literals      pure-ASCII literals of at least {@value #MIN_LENGTH} characters; index = id
     * @param caseSensitive per id: compare as written ({@code true}) or with ASCII case folded
     * @throws IllegalArgumentException on a short or non-ASCII literal
     */
    LiteralSet(List<String> literals, List<Boolean> caseSensitive) {
        if (literals.size() != caseSensitive.size()) {
            throw new IllegalArgumentException("one case flag per literal");
        }
        this.literals = new String[literals.size()];
        this.caseSensitive = new boolean[literals.size()];
        Map<Integer, List<Integer>> byTrigram = new HashMap<>();
        for (int id = 0; id < this.literals.length; id++) {
            String l = literals.get(id);
            boolean cs = caseSensitive.get(id);
            if (l.length() < MIN_LENGTH || !l.chars().allMatch(c -> c < 0x80)) {
                throw new IllegalArgumentException("literal must be ASCII, at least " + MIN_LENGTH + " characters: " + l);
            }
            this.literals[id] = cs ? l : foldAll(l);
            this.caseSensitive[id] = cs;
            int t = trigram(l, 0);
            int h = hash(t);
            filter[h >>> 6] |= 1L << h;
            byTrigram.computeIfAbsent(t, k -> new ArrayList<>()).add(id);
        }
        int slots = Integer.highestOneBit(Math.max(4, byTrigram.size() * 4 - 1)) << 1;
        slotMask = slots - 1;
        slotTrigram = new int[slots];
        Arrays.fill(slotTrigram, -1);
        List<List<Integer>> slotLists = new ArrayList<>();
        for (int k = 0; k < slots; k++) {
            slotLists.add(List.of());
        }
        for (Map.Entry<Integer, List<Integer>> e : byTrigram.entrySet()) {
            int s = hash(e.getKey()) & slotMask;
            while (slotTrigram[s] != -1) {
                s = (s + 1) & slotMask;
            }
            slotTrigram[s] = e.getKey();
            slotLists.set(s, e.getValue());
        }
        from = new int[this.literals.length + 1];
        StringBuilder all = new StringBuilder();
        for (int id = 0; id < this.literals.length; id++) {
            all.append(this.literals[id]);
            from[id + 1] = all.length();
        }
        chars = all.toString().toCharArray();
        // the tries, breadth first: a node's edges are contiguous
        List<java.util.TreeMap<Character, Integer>> children = new ArrayList<>();
        List<List<Integer>> ends = new ArrayList<>();
        slotRoot = new int[slots];
        for (int k = 0; k < slots; k++) {
            if (slotTrigram[k] == -1) {
                continue;
            }
            int root = children.size();
            children.add(new java.util.TreeMap<>());
            ends.add(new ArrayList<>());
            slotRoot[k] = root;
            for (int id : slotLists.get(k)) {
                String folded = foldAll(this.literals[id]);
                int v = root;
                for (int c = MIN_LENGTH; c < folded.length(); c++) {
                    Integer next = children.get(v).get(folded.charAt(c));
                    if (next == null) {
                        next = children.size();
                        children.add(new java.util.TreeMap<>());
                        ends.add(new ArrayList<>());
                        children.get(v).put(folded.charAt(c), next);
                    }
                    v = next;
                }
                ends.get(v).add(id);
            }
        }
        int nodes = children.size();
        edgeFrom = new int[nodes + 1];
        idFrom = new int[nodes + 1];
        for (int v = 0; v < nodes; v++) {
            edgeFrom[v + 1] = edgeFrom[v] + children.get(v).size();
            idFrom[v + 1] = idFrom[v] + ends.get(v).size();
        }
        edgeChar = new char[edgeFrom[nodes]];
        edgeNode = new int[edgeFrom[nodes]];
        nodeIds = new int[idFrom[nodes]];
        for (int v = 0; v < nodes; v++) {
            int e = edgeFrom[v];
            for (Map.Entry<Character, Integer> c : children.get(v).entrySet()) {
                edgeChar[e] = c.getKey();
                edgeNode[e++] = c.getValue();
            }
            int q = idFrom[v];
            for (int id : ends.get(v)) {
                nodeIds[q++] = id;
            }
        }
    }

    /** Number of literals (ids are {@code 0..size()-1}). */
    int size() {
        return literals.length;
    }

    /** The literal with {@code id} (lower case when case-insensitive). */
    String literal(int id) {
        return literals[id];
    }

    /** Words of a bit set over the literal ids. */
    int words() {
        return (literals.length + 63) >>> 6;
    }

    /**
     * Finds the literals in {@code text}: sets bit {@code id} of {@code present} (length
     * {@link #words()}) for each literal that occurs.
     *
     * @return the literals found, as pairs {@code (id, index of its first occurrence)} in the
     *         order of those indexes: {@code [id0, start0, id1, start1, …]}
     */
    int[] scan(String text, long[] present) {
        return scan(text, present, new Scratch());
    }

    /** Reusable buffers of one thread's scans (a turn's): the text's characters and the pairs found. */
    static final class Scratch {
        char[] chars = new char[64];
        int[] pairs = new int[16];
    }

    /** {@link #scan(String, long[])} with the buffers of {@code scratch}. */
    int[] scan(String s0, long[] present, Scratch scratch) {
        int n = s0.length();
        if (n < MIN_LENGTH) {
            return NONE;
        }
        if (scratch.chars.length < n) {
            scratch.chars = new char[Math.max(n, scratch.chars.length * 2)];
        }
        char[] text = scratch.chars;
        s0.getChars(0, n, text, 0); // String.charAt's per-character checks cost more than the copy
        int[] found = scratch.pairs;
        int size = 0;
        int t = code(text[0]) << 7 | code(text[1]);
        for (int i = 0; i + 2 < n; i++) {
            t = (t << 7 | code(text[i + 2])) & 0x1FFFFF;
            int h = hash(t);
            if ((filter[h >>> 6] & (1L << h)) == 0) {
                continue;
            }
            int s = h & slotMask;
            while (slotTrigram[s] != t && slotTrigram[s] != -1) {
                s = (s + 1) & slotMask;
            }
            if (slotTrigram[s] != t) {
                continue;
            }
            int v = slotRoot[s];
            for (int k = i + MIN_LENGTH; ; k++) { // down the trie: the literals starting at i, shortest first
                for (int q = idFrom[v], end = idFrom[v + 1]; q < end; q++) {
                    int id = nodeIds[q];
                    if ((present[id >>> 6] & (1L << id)) != 0 || caseSensitive[id] && !startsAt(text, n, i, id)) {
                        continue;
                    }
                    present[id >>> 6] |= 1L << id;
                    if (size == found.length) {
                        found = Arrays.copyOf(found, size * 2);
                        scratch.pairs = found;
                    }
                    found[size++] = id;
                    found[size++] = i;
                }
                int e = edgeFrom[v];
                int end = edgeFrom[v + 1];
                if (e == end || k >= n) {
                    break;
                }
                char c = fold(text[k]);
                while (e < end && edgeChar[e] != c) {
                    e++;
                }
                if (e == end) {
                    break;
                }
                v = edgeNode[e];
            }
        }
        return size == 0 ? NONE : Arrays.copyOf(found, size);
    }

    private boolean startsAt(char[] text, int n, int i, int id) {
        int a = from[id];
        int len = from[id + 1] - a;
        if (i + len > n) {
            return false;
        }
        for (int k = 0; k < len; k++) { // case-sensitive: the trie compared them folded
            if (text[i + k] != chars[a + k]) {
                return false;
            }
        }
        return true;
    }

    private static int code(char c) {
        return c < 0x80 ? CODE[c] : 0;
    }

    private static int trigram(String s, int i) {
        return code(s.charAt(i)) << 14 | code(s.charAt(i + 1)) << 7 | code(s.charAt(i + 2));
    }

    private static int hash(int trigram) {
        return (trigram * 0x9E3779B1) >>> (32 - FILTER_BITS);
    }

    /** ASCII upper case to lower case; every other character unchanged (as {@code CASE_INSENSITIVE} compares). */
    static char fold(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
    }

    /** {@code s} with {@link #fold} applied to every character. */
    static String foldAll(String s) {
        char[] out = s.toCharArray();
        for (int i = 0; i < out.length; i++) {
            out[i] = fold(out[i]);
        }
        return new String(out);
    }
}
