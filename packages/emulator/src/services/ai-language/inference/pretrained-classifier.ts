/**
 * The pre-trained text classifier: the same naive Bayes as custom models, trained on a small
 * labelled corpus shipped in `data/pretrained-text-classification.csv` (labels follow OCI's
 * hierarchical taxonomy style, e.g. "Science and Technology/Computers").
 *
 * It is trained on first use and kept for the life of the process: the one piece of module
 * state in the inference code, so that a 100-document request does not retrain it.
 */
import { DATA_FILES, readDataFile } from './data-files';
import { trainNaiveBayes, type NaiveBayesArtifact } from './text-classification';
import { parseTrainingData } from './training';

let memo: NaiveBayesArtifact | undefined;

export function pretrainedClassifier(): NaiveBayesArtifact {
  if (!memo) {
    const file = {
      name: DATA_FILES.pretrainedTextClassification,
      content: readDataFile(DATA_FILES.pretrainedTextClassification),
    };
    memo = trainNaiveBayes(parseTrainingData('TEXT_CLASSIFICATION', [file]), 'MULTI_CLASS');
  }
  return memo;
}
